package dev.remedy.simulators.ipmi;

import dev.remedy.simulators.ipmi.BmcSession.State;
import java.util.Arrays;

/**
 * The BMC's side of the RMCP+ session handshake (IPMI v2.0 sections 13.17 to 13.24): Open Session, RAKP 1/2
 * and RAKP 3/4. Errors are answered with the RMCP+ status codes of table 13-15; a failed RAKP step discards the
 * session. A retransmitted request gets the same answer again.
 */
final class Handshake {

    static final int OK = 0x00;
    static final int INSUFFICIENT_RESOURCES = 0x01;
    static final int INVALID_SESSION_ID = 0x02;
    static final int INVALID_AUTHENTICATION_ALGORITHM = 0x04;
    static final int INVALID_INTEGRITY_ALGORITHM = 0x05;
    static final int INVALID_ROLE = 0x09;
    static final int UNAUTHORIZED_NAME = 0x0d;
    static final int INVALID_INTEGRITY_CHECK_VALUE = 0x0f;
    static final int INVALID_CONFIDENTIALITY_ALGORITHM = 0x10;
    static final int NO_CIPHER_SUITE_MATCH = 0x11;
    static final int ILLEGAL_PARAMETER = 0x12;

    static final int OPEN_SESSION_RESPONSE = 0x11;
    static final int RAKP2 = 0x13;
    static final int RAKP4 = 0x15;

    private final BmcProtocol bmc;

    Handshake(BmcProtocol bmc) {
        this.bmc = bmc;
    }

    /** Open Session Request to Open Session Response. */
    int openSession(byte[] in, int at, int length, byte[] out) {
        if (length < 8) {
            return 0;
        }
        int tag = in[at];
        int requested = in[at + 1] & 0x0f;
        int consoleId = Wire.i32(in, at + 4);
        if (length < 32 || consoleId == 0) {
            return error(out, OPEN_SESSION_RESPONSE, tag, ILLEGAL_PARAMETER, consoleId);
        }
        int[] algorithms = new int[3];
        for (int i = 0; i < 3; i++) {
            int record = at + 8 + 8 * i;
            if ((in[record] & 0x3f) != i) {
                return error(out, OPEN_SESSION_RESPONSE, tag, ILLEGAL_PARAMETER, consoleId);
            }
            algorithms[i] = in[record + 4] & 0x3f;
        }
        bmc.recordProposal(algorithms);
        if (bmc.spec.forcedSuite().isPresent()) {
            return opened(in, at, length, out, requested, consoleId, requested > Privilege.ADMINISTRATOR.level()
                    ? INVALID_ROLE : OK, CipherSuite.byId(bmc.spec.forcedSuite().getAsInt()).orElseThrow());
        }
        int status = requested > Privilege.ADMINISTRATOR.level() ? INVALID_ROLE
                : !CipherSuite.knownAuthentication(algorithms[0]) ? INVALID_AUTHENTICATION_ALGORITHM
                : !CipherSuite.knownIntegrity(algorithms[1]) ? INVALID_INTEGRITY_ALGORITHM
                : !CipherSuite.knownConfidentiality(algorithms[2]) ? INVALID_CONFIDENTIALITY_ALGORITHM
                : OK;
        CipherSuite suite = status == OK ? enabledSuite(algorithms) : null;
        if (status == OK && suite == null) {
            status = NO_CIPHER_SUITE_MATCH;
        }
        return opened(in, at, length, out, requested, consoleId, status, suite);
    }

    /** Answers an Open Session Request with {@code status}, allotting a session of {@code suite} if OK. */
    private int opened(byte[] in, int at, int length, byte[] out, int requested, int consoleId, int status,
            CipherSuite suite) {
        int tag = in[at];
        if (status != OK) {
            return error(out, OPEN_SESSION_RESPONSE, tag, status, consoleId);
        }
        byte[] request = Arrays.copyOfRange(in, at, at + length);
        for (BmcSession session : bmc.sessions.values()) {
            if (session.state == State.OPENED && session.consoleId == consoleId
                    && Arrays.equals(session.handshakeRequest, request)) {
                return resend(session, out);
            }
        }
        bmc.expire();
        if (bmc.slotsInUse() >= bmc.spec.maxSessions()) {
            return error(out, OPEN_SESSION_RESPONSE, tag, INSUFFICIENT_RESOURCES, consoleId);
        }
        long now = bmc.nanoClock.getAsLong();
        BmcSession session = new BmcSession(bmc.newSessionId(), consoleId, suite, now);
        bmc.sessions.put(session.bmcId, session);
        int p = BmcSession.RMCP_PLUS_HEADER;
        Arrays.fill(out, p, p + 36, (byte) 0);
        out[p] = (byte) tag;
        out[p + 2] = (byte) (requested == 0 ? Privilege.ADMINISTRATOR.level() : requested);
        Wire.put32(out, p + 4, consoleId);
        Wire.put32(out, p + 8, session.bmcId);
        int[] chosen = {suite.authenticationAlgorithm(), suite.integrityAlgorithm(), suite.confidentialityAlgorithm()};
        for (int i = 0; i < 3; i++) {
            int record = p + 12 + 8 * i;
            out[record] = (byte) i;
            out[record + 3] = 0x08;
            out[record + 4] = (byte) chosen[i];
        }
        return remember(session, request, out, BmcProtocol.unsessioned(out, OPEN_SESSION_RESPONSE, 36));
    }

    /** RAKP 1 to RAKP 2. */
    int rakp1(byte[] in, int at, int length, byte[] out, Crypto crypto) {
        if (length < 8) {
            return 0;
        }
        int tag = in[at];
        BmcSession session = bmc.sessions.get(Wire.i32(in, at + 4));
        if (session == null || (session.state != State.OPENED && session.state != State.RAKP2_SENT)) {
            return error(out, RAKP2, tag, INVALID_SESSION_ID, 0);
        }
        byte[] request = Arrays.copyOfRange(in, at, at + length);
        if (session.state == State.RAKP2_SENT && Arrays.equals(session.handshakeRequest, request)) {
            return resend(session, out);
        }
        int nameLength = length >= 28 ? Wire.u8(in, at + 27) : -1;
        if (nameLength < 0 || nameLength > BmcUser.MAX_NAME_BYTES || 28 + nameLength > length) {
            return fail(session, out, RAKP2, tag, ILLEGAL_PARAMETER);
        }
        int role = Wire.u8(in, at + 24);
        int level = role & 0x0f;
        BmcUser user = bmc.spec.user(in, at + 28, nameLength).orElse(null);
        if (user == null && bmc.spec.silentOnUnknownUser()) {
            return 0;
        }
        if (user == null) {
            return fail(session, out, RAKP2, tag, UNAUTHORIZED_NAME);
        }
        if (level < Privilege.CALLBACK.level() || level > user.maxPrivilege().level()) {
            return fail(session, out, RAKP2, tag, INVALID_ROLE);
        }
        session.user = user;
        session.role = role;
        session.rm = Arrays.copyOfRange(in, at + 8, at + 24);
        session.rc = new byte[16];
        bmc.random.nextBytes(session.rc);
        byte[] code = Rakp.rakp2Code(crypto, session.suite, user.kuid(), session.consoleId, session.bmcId,
                session.rm, session.rc, bmc.guid, role, user.nameBytes());
        session.state = State.RAKP2_SENT;
        session.lastActivityNanos = bmc.nanoClock.getAsLong();
        int p = BmcSession.RMCP_PLUS_HEADER;
        Arrays.fill(out, p, p + 8, (byte) 0);
        out[p] = (byte) tag;
        Wire.put32(out, p + 4, session.consoleId);
        System.arraycopy(session.rc, 0, out, p + 8, 16);
        System.arraycopy(bmc.guid, 0, out, p + 24, 16);
        System.arraycopy(code, 0, out, p + 40, code.length);
        return remember(session, request, out, BmcProtocol.unsessioned(out, RAKP2, 40 + code.length));
    }

    /** RAKP 3 to RAKP 4; a right code activates the session. */
    int rakp3(byte[] in, int at, int length, byte[] out, Crypto crypto) {
        if (length < 8) {
            return 0;
        }
        int tag = in[at];
        int consoleStatus = in[at + 1];
        BmcSession session = bmc.sessions.get(Wire.i32(in, at + 4));
        if (session == null) {
            return error(out, RAKP4, tag, INVALID_SESSION_ID, 0);
        }
        byte[] request = Arrays.copyOfRange(in, at, at + length);
        if (session.state == State.ACTIVE && Arrays.equals(session.handshakeRequest, request)) {
            return resend(session, out);
        }
        if (session.state != State.RAKP2_SENT) {
            return session.state == State.OPENED ? fail(session, out, RAKP4, tag, ILLEGAL_PARAMETER) : 0;
        }
        if (consoleStatus != OK) {
            bmc.discard(session);
            return 0;
        }
        if (bmc.spec.silentOnRakp3()) {
            return 0;
        }
        BmcUser user = session.user;
        byte[] kuid = user.kuid();
        byte[] expected = Rakp.rakp3Code(crypto, session.suite, kuid, session.rc, session.consoleId, session.role,
                user.nameBytes());
        if (!constantTimeEquals(expected, in, at + 8, length - 8)) {
            return fail(session, out, RAKP4, tag, INVALID_INTEGRITY_CHECK_VALUE);
        }
        byte[] kg = bmc.spec.bmcKeyOrNull() != null ? bmc.spec.bmcKeyOrNull() : kuid;
        byte[] sik = Rakp.sik(crypto, session.suite, kg, session.rm, session.rc, session.role, user.nameBytes());
        byte[] icv = Rakp.rakp4Icv(crypto, session.suite, sik, session.rm, session.bmcId, bmc.guid);
        session.activate(Rakp.derivedKey(crypto, session.suite, sik, 1), Rakp.derivedKey(crypto, session.suite, sik, 2),
                Privilege.min(Privilege.ofLevel(session.role & 0x0f), user.maxPrivilege()));
        session.lastActivityNanos = bmc.nanoClock.getAsLong();
        bmc.activated();
        int p = BmcSession.RMCP_PLUS_HEADER;
        Arrays.fill(out, p, p + 8, (byte) 0);
        out[p] = (byte) tag;
        Wire.put32(out, p + 4, session.consoleId);
        System.arraycopy(icv, 0, out, p + 8, icv.length);
        return remember(session, request, out, BmcProtocol.unsessioned(out, RAKP4, 8 + icv.length));
    }

    private CipherSuite enabledSuite(int[] algorithms) {
        for (int id : bmc.cipherSuites()) {
            CipherSuite suite = CipherSuite.byId(id).orElseThrow();
            if (suite.matches(algorithms[0], algorithms[1], algorithms[2])) {
                return suite;
            }
        }
        return null;
    }

    private int fail(BmcSession session, byte[] out, int type, int tag, int status) {
        bmc.discard(session);
        return error(out, type, tag, status, session.consoleId);
    }

    /** An error answer: message tag, status, two reserved bytes, the console's session id. */
    private static int error(byte[] out, int type, int tag, int status, int consoleId) {
        int p = BmcSession.RMCP_PLUS_HEADER;
        out[p] = (byte) tag;
        out[p + 1] = (byte) status;
        out[p + 2] = 0;
        out[p + 3] = 0;
        Wire.put32(out, p + 4, consoleId);
        return BmcProtocol.unsessioned(out, type, 8);
    }

    private static int remember(BmcSession session, byte[] request, byte[] out, int length) {
        session.handshakeRequest = request;
        session.handshakeResponse = Arrays.copyOf(out, length);
        return length;
    }

    private static int resend(BmcSession session, byte[] out) {
        System.arraycopy(session.handshakeResponse, 0, out, 0, session.handshakeResponse.length);
        return session.handshakeResponse.length;
    }

    private static boolean constantTimeEquals(byte[] expected, byte[] in, int at, int length) {
        if (length != expected.length) {
            return false;
        }
        int difference = 0;
        for (int i = 0; i < length; i++) {
            difference |= expected[i] ^ in[at + i];
        }
        return difference == 0;
    }
}
