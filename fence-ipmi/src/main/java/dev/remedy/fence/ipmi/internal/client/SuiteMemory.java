package dev.remedy.fence.ipmi.internal.client;

import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cipher suite each BMC (address, port and user) last accepted for a login that lets the client choose, so
 * the next session proposes it without asking Get Channel Cipher Suites again (up to
 * {@link Handshake#SUITES_WAIT} per session on BMCs that ignore the query). A suite the BMC stops accepting is
 * forgotten. Thread-safe.
 */
final class SuiteMemory {

    private record Key(InetSocketAddress address, String user) {
    }

    private final Map<Key, CipherSuite> accepted = new ConcurrentHashMap<>();

    /** The suite remembered for this BMC and user, if the login allows it. */
    Optional<CipherSuite> recall(BmcLogin login) {
        return Optional.ofNullable(accepted.get(key(login))).filter(login.suites()::contains);
    }

    void remember(BmcLogin login, CipherSuite suite) {
        accepted.put(key(login), suite);
    }

    /** Forgets the suite remembered for this BMC and user, if it is still {@code suite}. */
    void forget(BmcLogin login, CipherSuite suite) {
        accepted.remove(key(login), suite);
    }

    private static Key key(BmcLogin login) {
        return new Key(login.address(), login.user());
    }
}
