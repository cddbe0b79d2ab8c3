package dev.remedy.simulators.redfish;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The SessionService's sessions: create up to a limit, find by token or id, delete, expire all. Thread-safe. */
final class Sessions {

    /** One open session. */
    record Session(String id, String userName, String token) {

        String path() {
            return "/redfish/v1/SessionService/Sessions/" + id;
        }

        @Override
        public String toString() {
            return "Session[" + id + ", " + userName + ", token=****]";
        }
    }

    private final int max;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> byToken = new LinkedHashMap<>();
    private final Map<String, Session> byId = new LinkedHashMap<>();
    private long created;
    private String lastToken;
    private long nextId = 1;

    Sessions(int max) {
        this.max = max;
    }

    /** Opens a session for {@code userName}, or returns empty when the limit is reached. */
    synchronized Optional<Session> create(String userName) {
        if (byId.size() >= max) {
            return Optional.empty();
        }
        byte[] secret = new byte[24];
        random.nextBytes(secret);
        Session session = new Session(Long.toString(nextId++), userName, HexFormat.of().formatHex(secret));
        byToken.put(session.token(), session);
        byId.put(session.id(), session);
        created++;
        lastToken = session.token();
        return Optional.of(session);
    }

    synchronized Optional<Session> byToken(String token) {
        return Optional.ofNullable(byToken.get(token));
    }

    synchronized Optional<Session> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    synchronized boolean delete(String id) {
        Session removed = byId.remove(id);
        if (removed == null) {
            return false;
        }
        byToken.remove(removed.token());
        return true;
    }

    synchronized void expireAll() {
        byId.clear();
        byToken.clear();
    }

    synchronized List<Session> all() {
        return new ArrayList<>(byId.values());
    }

    synchronized int active() {
        return byId.size();
    }

    synchronized long created() {
        return created;
    }

    /** The token of the latest session created, open or not. */
    synchronized Optional<String> lastToken() {
        return Optional.ofNullable(lastToken);
    }

    int max() {
        return max;
    }
}
