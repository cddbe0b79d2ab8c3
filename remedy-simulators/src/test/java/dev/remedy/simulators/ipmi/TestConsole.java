package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * A minimal RMCP+ console for the simulator's tests: Open Session, RAKP 1 and 3 with chosen values, then
 * in-session requests with chosen sequence numbers. Packet framing reuses {@link BmcSession} with the roles
 * swapped; the known-answer test and the ipmitool ITs check that framing against real peers.
 */
final class TestConsole {

    /** Carries one datagram to the BMC and returns its answer, or null if none came. */
    @FunctionalInterface
    interface Transport {
        byte[] exchange(byte[] datagram);
    }

    /** An in-session answer: completion code, data after it, and the header fields of the response message. */
    record Reply(int completionCode, byte[] data, int netFn, int command, int rqSeq) {
    }

    static final int ROLE_ADMIN_NAME_ONLY = 0x14;

    private final Transport transport;
    private final Crypto crypto = new Crypto();
    private final Random random = new Random(42);
    private int nextConsoleId = 0xa0a2a3a4;

    TestConsole(Transport transport) {
        this.transport = transport;
    }

    /** Hands datagrams straight to a protocol instance, as the simulator thread would. */
    static Transport direct(BmcProtocol protocol) {
        Crypto serverCrypto = new Crypto();
        byte[] out = new byte[Crypto.MAX_DATAGRAM];
        return datagram -> {
            int length = protocol.handle(datagram.clone(), datagram.length, out, serverCrypto);
            return length == 0 ? null : Arrays.copyOf(out, length);
        };
    }

    /** Sends over UDP and waits up to {@code timeoutMillis} for the answer. */
    static Transport udp(DatagramSocket socket, InetSocketAddress bmc, int timeoutMillis) {
        return datagram -> {
            try {
                socket.setSoTimeout(timeoutMillis);
                socket.send(new DatagramPacket(datagram, datagram.length, bmc));
                byte[] buffer = new byte[Crypto.MAX_DATAGRAM];
                DatagramPacket answer = new DatagramPacket(buffer, buffer.length);
                socket.receive(answer);
                return Arrays.copyOf(buffer, answer.getLength());
            } catch (SocketTimeoutException e) {
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    byte[] exchange(byte[] datagram) {
        return transport.exchange(datagram);
    }

    /** Sends a session-less RMCP+ payload and returns the answer's payload (null if no answer). */
    byte[] unsessioned(int payloadType, byte[] payload) {
        byte[] datagram = new byte[16 + payload.length];
        System.arraycopy(payload, 0, datagram, 16, payload.length);
        BmcProtocol.unsessioned(datagram, payloadType, payload.length);
        byte[] answer = transport.exchange(datagram);
        if (answer == null) {
            return null;
        }
        assertThat(answer.length).as("answer datagram").isGreaterThanOrEqualTo(16);
        return Arrays.copyOfRange(answer, 16, 16 + Wire.u16(answer, 14));
    }

    /** An Open Session Request payload. */
    static byte[] openSessionRequest(int privilege, int consoleId, int auth, int integrity, int confidentiality) {
        byte[] p = new byte[32];
        p[0] = 0x01;
        p[1] = (byte) privilege;
        Wire.put32(p, 4, consoleId);
        int[] algorithms = {auth, integrity, confidentiality};
        for (int i = 0; i < 3; i++) {
            p[8 + 8 * i] = (byte) i;
            p[8 + 8 * i + 3] = 0x08;
            p[8 + 8 * i + 4] = (byte) algorithms[i];
        }
        return p;
    }

    /** Open Session for a suite; returns the answer payload. */
    byte[] openSession(CipherSuite suite, int consoleId) {
        return unsessioned(0x10, openSessionRequest(0, consoleId, suite.authenticationAlgorithm(),
                suite.integrityAlgorithm(), suite.confidentialityAlgorithm()));
    }

    /** Opens a session and sends RAKP 1; the caller then finishes with {@link Attempt#rakp3(String)}. */
    Attempt start(String user, int suiteId, int role) {
        CipherSuite suite = CipherSuite.byId(suiteId).orElseThrow();
        int consoleId = nextConsoleId++;
        byte[] open = openSession(suite, consoleId);
        assertThat(open).as("Open Session Response").isNotNull();
        Attempt attempt = new Attempt(user, suite, role, consoleId, open[1]);
        if (attempt.openStatus != 0) {
            return attempt;
        }
        attempt.bmcId = Wire.i32(open, 8);
        byte[] name = user.getBytes(StandardCharsets.US_ASCII);
        byte[] rakp1 = new byte[28 + name.length];
        Wire.put32(rakp1, 4, attempt.bmcId);
        random.nextBytes(attempt.rm);
        System.arraycopy(attempt.rm, 0, rakp1, 8, 16);
        rakp1[24] = (byte) role;
        rakp1[27] = (byte) name.length;
        System.arraycopy(name, 0, rakp1, 28, name.length);
        byte[] rakp2 = unsessioned(0x12, rakp1);
        if (rakp2 == null) {
            return attempt;
        }
        attempt.rakp2Status = rakp2[1];
        if (attempt.rakp2Status == 0) {
            attempt.rc = Arrays.copyOfRange(rakp2, 8, 24);
            attempt.guid = Arrays.copyOfRange(rakp2, 24, 40);
            attempt.rakp2Code = Arrays.copyOfRange(rakp2, 40, rakp2.length);
        }
        return attempt;
    }

    /** A whole login that must succeed. */
    Session login(String user, String password, int suiteId) {
        return start(user, suiteId, ROLE_ADMIN_NAME_ONLY).complete(password);
    }

    /** A login in progress. */
    final class Attempt {
        final String user;
        final CipherSuite suite;
        final int role;
        final int consoleId;
        final int openStatus;
        int bmcId;
        /** The RAKP 2 status, or -1 while RAKP 1 got no answer. */
        int rakp2Status = -1;
        final byte[] rm = new byte[16];
        byte[] rc;
        byte[] guid;
        byte[] rakp2Code;

        private Attempt(String user, CipherSuite suite, int role, int consoleId, int openStatus) {
            this.user = user;
            this.suite = suite;
            this.role = role;
            this.consoleId = consoleId;
            this.openStatus = openStatus;
        }

        private byte[] kuid(String password) {
            return new BmcUser(user, password, Privilege.ADMINISTRATOR).kuid();
        }

        private byte[] name() {
            return user.getBytes(StandardCharsets.US_ASCII);
        }

        /** Whether the BMC's RAKP 2 code proves it knows {@code password}. */
        boolean rakp2Verifies(String password) {
            return Arrays.equals(rakp2Code, Rakp.rakp2Code(crypto, suite, kuid(password), consoleId, bmcId, rm, rc,
                    guid, role, name()));
        }

        /** Sends RAKP 3 with the code for {@code password}; returns the RAKP 4 payload (null if no answer). */
        byte[] rakp3(String password) {
            byte[] code = Rakp.rakp3Code(crypto, suite, kuid(password), rc, consoleId, role, name());
            byte[] rakp3 = new byte[8 + code.length];
            Wire.put32(rakp3, 4, bmcId);
            System.arraycopy(code, 0, rakp3, 8, code.length);
            return unsessioned(0x14, rakp3);
        }

        /** RAKP 3 and 4 that must succeed, with the RAKP 2 code and RAKP 4 check value verified. */
        Session complete(String password) {
            assertThat(openStatus).as("Open Session status").isZero();
            assertThat(rakp2Status).as("RAKP 2 status").isZero();
            assertThat(rakp2Verifies(password)).as("RAKP 2 code verifies").isTrue();
            byte[] rakp4 = rakp3(password);
            assertThat(rakp4).as("RAKP 4").isNotNull();
            assertThat(rakp4[1]).as("RAKP 4 status").isZero();
            byte[] sik = Rakp.sik(crypto, suite, kuid(password), rm, rc, role, name());
            assertThat(Arrays.copyOfRange(rakp4, 8, rakp4.length)).as("RAKP 4 check value")
                    .isEqualTo(Rakp.rakp4Icv(crypto, suite, sik, rm, bmcId, guid));
            return new Session(this, Rakp.derivedKey(crypto, suite, sik, 1), Rakp.derivedKey(crypto, suite, sik, 2));
        }
    }

    /** An open session from the console's side. */
    final class Session {
        final int bmcId;
        final int consoleId;
        private final BmcSession framing;
        private int sequence;
        private int rqSeq;

        private Session(Attempt attempt, byte[] k1, byte[] k2) {
            this.bmcId = attempt.bmcId;
            this.consoleId = attempt.consoleId;
            this.framing = new BmcSession(attempt.consoleId, attempt.bmcId, attempt.suite, 0);
            framing.activate(k1, k2, Privilege.ADMINISTRATOR);
        }

        /** The next request datagram: next session sequence number, next rqSeq. */
        byte[] request(int netFn, int command, int... data) {
            rqSeq = (rqSeq + 1) & 0x3f;
            return requestAt(++sequence, rqSeq, netFn, command, data);
        }

        /** A request datagram with chosen sequence numbers. */
        byte[] requestAt(int sessionSequence, int requestSequence, int netFn, int command, int... data) {
            byte[] message = new byte[7 + data.length];
            message[0] = 0x20;
            message[1] = (byte) (netFn << 2);
            message[2] = Wire.checksum(message, 0, 2);
            message[3] = (byte) 0x81;
            message[4] = (byte) (requestSequence << 2);
            message[5] = (byte) command;
            for (int i = 0; i < data.length; i++) {
                message[6 + i] = (byte) data[i];
            }
            message[message.length - 1] = Wire.checksum(message, 3, message.length - 4);
            byte[] out = new byte[Crypto.MAX_DATAGRAM];
            random.nextBytes(crypto.iv);
            int length = framing.seal(message, message.length, out, crypto, crypto.iv.clone(), sessionSequence);
            return Arrays.copyOf(out, length);
        }

        /** Sends a request and reads the answer (null if none). */
        Reply call(int netFn, int command, int... data) {
            return reply(transport.exchange(request(netFn, command, data)));
        }

        /** Reads an in-session answer; fails the test if its AuthCode or padding is wrong. */
        Reply reply(byte[] answer) {
            if (answer == null) {
                return null;
            }
            assertThat(Wire.i32(answer, 6)).as("session id of the answer").isEqualTo(consoleId);
            int length = framing.open(answer, answer.length, crypto);
            assertThat(length).as("answer opens with the session keys").isPositive();
            IpmiRequest message = IpmiRequest.decode(crypto.plain, 0, length);
            assertThat(message).as("answer message checksums").isNotNull();
            return new Reply(message.data()[0] & 0xff, Arrays.copyOfRange(message.data(), 1, message.data().length),
                    message.netFn(), message.command(), message.rqSeq());
        }

        Reply setPrivilege(Privilege privilege) {
            return call(IpmiRequest.NETFN_APP, BmcCommands.SET_SESSION_PRIVILEGE_LEVEL, privilege.level());
        }

        Reply chassisStatus() {
            return call(IpmiRequest.NETFN_CHASSIS, BmcCommands.GET_CHASSIS_STATUS);
        }

        Reply chassisControl(int control) {
            return call(IpmiRequest.NETFN_CHASSIS, BmcCommands.CHASSIS_CONTROL, control);
        }

        Reply close() {
            return closeOther(bmcId);
        }

        Reply closeOther(int id) {
            byte[] le = Wire.le32(id);
            return call(IpmiRequest.NETFN_APP, BmcCommands.CLOSE_SESSION, le[0] & 0xff, le[1] & 0xff, le[2] & 0xff,
                    le[3] & 0xff);
        }
    }
}
