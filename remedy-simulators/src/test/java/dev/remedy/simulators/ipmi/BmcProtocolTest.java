package dev.remedy.simulators.ipmi;

import static dev.remedy.simulators.ipmi.IpmiRequest.NETFN_APP;
import static dev.remedy.simulators.ipmi.IpmiRequest.NETFN_CHASSIS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.simulators.ipmi.TestConsole.Attempt;
import dev.remedy.simulators.ipmi.TestConsole.Reply;
import dev.remedy.simulators.ipmi.TestConsole.Session;
import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("One simulated BMC, datagram by datagram")
class BmcProtocolTest {

    private static final String PASSWORD = "remedy-secret";
    private static final byte[] GUID = HexFormat.of().parseHex("a123456789abcdefa123456789abcdef");

    private final FakeTimeSource clock = FakeTimeSource.nearOverflow(Duration.ofMinutes(5));

    private BmcProtocol bmc(BmcSpec.Builder spec) {
        ScheduledPowerTarget power = new ScheduledPowerTarget(PowerState.ON, clock::nanoTime);
        return new BmcProtocol(spec.guid(GUID).build(), GUID, power, clock::nanoTime, new Random(1));
    }

    private static BmcSpec.Builder spec() {
        return BmcSpec.builder().user("admin", PASSWORD).user("viewer", "viewer-pass", Privilege.USER)
                .user("operator", "operator-pass", Privilege.OPERATOR);
    }

    @Test
    @DisplayName("Get Channel Authentication Capabilities outside a session reports IPMI v2.0 on channel 1")
    void authCapabilities() {
        BmcProtocol bmc = bmc(spec());
        byte[] answer = TestConsole.direct(bmc).exchange(SessionlessProbe.authCapabilities());

        assertThat(SessionlessProbe.completedOk(answer, 0x38)).isTrue();
        assertThat(SessionlessProbe.data(answer)).containsExactly(0x01, 0x80, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00);
    }

    @Test
    @DisplayName("with a BMC key the capabilities say KG is set, and Get System GUID answers the GUID")
    void kgStatusAndGuid() {
        BmcProtocol bmc = bmc(spec().bmcKeyHex("6162"));
        TestConsole.Transport transport = TestConsole.direct(bmc);

        assertThat(SessionlessProbe.data(transport.exchange(SessionlessProbe.authCapabilities()))[2]).isEqualTo((byte) 0x24);
        assertThat(SessionlessProbe.data(transport.exchange(SessionlessProbe.systemGuid()))).isEqualTo(GUID);
    }

    @Test
    @DisplayName("Get Channel Cipher Suites lists the enabled suites as records, 16 bytes per list index")
    void cipherSuites() {
        BmcProtocol bmc = bmc(spec().cipherSuites(3, 17, 0, 1));
        TestConsole.Transport transport = TestConsole.direct(bmc);

        byte[] first = transport.exchange(SessionlessProbe.request(NETFN_APP, 0x54, 0, 0x0e, 0x00, 0x80));
        byte[] second = transport.exchange(SessionlessProbe.request(NETFN_APP, 0x54, 1, 0x0e, 0x00, 0x81));

        assertThat(HexFormat.of().formatHex(SessionlessProbe.data(first)))
                .isEqualTo("01" + "c003014181" + "c011034481" + "c000004080" + "c0");
        assertThat(HexFormat.of().formatHex(SessionlessProbe.data(second))).isEqualTo("01" + "01014080");
    }

    @Test
    @DisplayName("an RMCP presence ping gets a pong saying IPMI is supported")
    void presencePing() {
        byte[] ping = HexFormat.of().parseHex("0600ff06000011be80070000");
        byte[] pong = TestConsole.direct(bmc(spec())).exchange(ping);

        assertThat(HexFormat.of().formatHex(pong)).startsWith("0600ff06000011be400700100000" + "11be0000000081");
    }

    @Test
    @DisplayName("commands that need a session are refused outside one with 0xD4")
    void sessionlessRefusal() {
        byte[] answer = TestConsole.direct(bmc(spec())).exchange(SessionlessProbe.request(NETFN_CHASSIS, 0x01, 2));

        assertThat(answer[14 + 6]).isEqualTo((byte) 0xd4);
    }

    @ParameterizedTest(name = "cipher suite {0}")
    @ValueSource(ints = {0, 1, 2, 3, 15, 16, 17})
    @DisplayName("a session opens with every implemented suite, reads status, powers off and on, and closes")
    void sessionLifecycle(int suite) {
        BmcProtocol bmc = bmc(spec().cipherSuites(suite));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        Session session = console.login("admin", PASSWORD, suite);
        assertThat(bmc.activeSessions()).isEqualTo(1);
        assertThat(session.setPrivilege(Privilege.ADMINISTRATOR).data()).containsExactly(0x04);
        assertThat(session.chassisStatus().data()[0] & 1).isEqualTo(1);
        assertThat(session.chassisControl(0).completionCode()).isZero();
        assertThat(session.chassisStatus().data()[0] & 1).isZero();
        assertThat(session.chassisControl(1).completionCode()).isZero();
        Reply closed = session.close();

        assertThat(closed.completionCode()).isZero();
        assertThat(closed.netFn()).isEqualTo(0x07);
        assertThat(bmc.power.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(bmc.activeSessions()).isZero();
        assertThat(bmc.sessionsOpened()).isEqualTo(1);
        assertThat(session.chassisStatus()).as("no answer once closed").isNull();
    }

    @Test
    @DisplayName("Get Device ID answers 15 bytes and says IPMI 2.0")
    void deviceId() {
        BmcProtocol bmc = bmc(spec());
        Session session = new TestConsole(TestConsole.direct(bmc)).login("admin", PASSWORD, 3);

        Reply reply = session.call(NETFN_APP, 0x01);

        assertThat(reply.completionCode()).isZero();
        assertThat(reply.data()).hasSize(15);
        assertThat(reply.data()[4]).isEqualTo((byte) 0x02);
    }

    @Test
    @DisplayName("a wrong password: RAKP 2 does not verify for the console, and RAKP 3 is refused with 0x0F")
    void wrongPassword() {
        BmcProtocol bmc = bmc(spec().maxSessions(1));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        Attempt attempt = console.start("admin", 3, TestConsole.ROLE_ADMIN_NAME_ONLY);
        assertThat(attempt.rakp2Status).isZero();
        assertThat(attempt.rakp2Verifies("not-the-password")).isFalse();
        byte[] rakp4 = attempt.rakp3("not-the-password");

        assertThat(rakp4).hasSize(8);
        assertThat(rakp4[1]).isEqualTo((byte) 0x0f);
        assertThat(bmc.activeSessions()).isZero();
        assertThat(bmc.slotsInUse()).as("the failed session freed its slot").isZero();
        console.login("admin", PASSWORD, 3);
    }

    @Test
    @DisplayName("an unknown user gets RAKP 2 status 0x0D, a role above the user's maximum gets 0x09")
    void unknownUserAndRole() {
        BmcProtocol bmc = bmc(spec());
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        assertThat(console.start("nobody", 17, 0x14).rakp2Status).isEqualTo(0x0d);
        assertThat(console.start("viewer", 17, 0x14).rakp2Status).isEqualTo(0x09);
        assertThat(console.start("viewer", 17, 0x12).rakp2Status).isZero();
        assertThat(console.start("admin", 17, 0x10).rakp2Status).as("role 0 is reserved").isEqualTo(0x09);
    }

    @Test
    @DisplayName("silentOnUnknownUser: RAKP 1 naming an unknown user goes unanswered, known users still log in")
    void silentOnUnknownUser() {
        BmcProtocol bmc = bmc(spec().silentOnUnknownUser(true));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        TestConsole.Attempt unknown = console.start("nobody", 17, 0x14);
        assertThat(unknown.openStatus).as("Open Session is answered").isZero();
        assertThat(unknown.rakp2Status).as("no RAKP 2 at all").isEqualTo(-1);
        assertThat(console.start("viewer", 17, 0x14).rakp2Status).as("a known user's errors are still answered")
                .isEqualTo(0x09);
        console.login("admin", PASSWORD, 17);
    }

    @Test
    @DisplayName("Open Session names the problem: suite not enabled 0x11, unknown algorithms 0x04, 0x05, 0x10")
    void openSessionStatuses() {
        TestConsole console = new TestConsole(TestConsole.direct(bmc(spec().cipherSuites(17))));

        assertThat(console.openSession(CipherSuite.SUITE_3, 1)[1]).isEqualTo((byte) 0x11);
        assertThat(status(console, TestConsole.openSessionRequest(0, 1, 2, 4, 1))).isEqualTo(0x04);
        assertThat(status(console, TestConsole.openSessionRequest(0, 1, 3, 2, 1))).isEqualTo(0x05);
        assertThat(status(console, TestConsole.openSessionRequest(0, 1, 3, 4, 2))).isEqualTo(0x10);
        assertThat(status(console, TestConsole.openSessionRequest(5, 1, 3, 4, 1))).isEqualTo(0x09);
        assertThat(status(console, TestConsole.openSessionRequest(0, 0, 3, 4, 1))).isEqualTo(0x12);
        byte[] ok = console.unsessioned(0x10, TestConsole.openSessionRequest(0, 7, 3, 4, 1));
        assertThat(ok).hasSize(36);
        assertThat(Wire.i32(ok, 4)).isEqualTo(7);
        assertThat(ok[2]).as("maximum privilege for 'highest'").isEqualTo((byte) 4);
    }

    @Test
    @DisplayName("forcedSuite(3): a proposal of suite 17 is answered OK with suite 3's algorithms, and suite 3 logs in")
    void forcedSuite() {
        BmcProtocol bmc = bmc(spec().cipherSuites(17).forcedSuite(3));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        byte[] answer = console.openSession(CipherSuite.SUITE_17, 9);
        assertThat(answer).hasSize(36);
        assertThat(answer[1]).as("status").isZero();
        assertThat(new int[] {answer[16], answer[24], answer[32]}).as("authentication, integrity, confidentiality")
                .containsExactly(CipherSuite.AUTH_HMAC_SHA1, CipherSuite.INTEGRITY_HMAC_SHA1_96,
                        CipherSuite.CONFIDENTIALITY_AES_CBC_128);
        console.login("admin", PASSWORD, 3);
        assertThat(status(console, TestConsole.openSessionRequest(5, 1, 3, 4, 1))).as("roles are still checked")
                .isEqualTo(0x09);
        assertThat(bmc.proposedSuites()).as("suites proposed, recorded for tests").containsExactly(17, 3, 17);
    }

    @Test
    @DisplayName("silentOnCipherSuitesQuery: Get Channel Cipher Suites goes unanswered, other commands do not")
    void silentOnCipherSuitesQuery() {
        TestConsole.Transport transport = TestConsole.direct(bmc(spec().silentOnCipherSuitesQuery(true)));

        assertThat(transport.exchange(SessionlessProbe.request(NETFN_APP, 0x54, 0, 0x0e, 0x00, 0x80)))
                .as("Get Channel Cipher Suites").isNull();
        assertThat(SessionlessProbe.completedOk(transport.exchange(SessionlessProbe.authCapabilities()), 0x38))
                .isTrue();
    }

    @Test
    @DisplayName("Get Channel Cipher Suites is counted, answered or not; suites enabled later are listed and accepted")
    void cipherSuitesChangedAndCounted() {
        BmcProtocol bmc = bmc(spec().cipherSuites(17, 3));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        byte[] query = SessionlessProbe.request(NETFN_APP, 0x54, 0, 0x0e, 0x00, 0x80);

        console.exchange(query);
        bmc.cipherSuites(BmcSpec.Builder.suites(3));

        assertThat(HexFormat.of().formatHex(SessionlessProbe.data(console.exchange(query))))
                .isEqualTo("01" + "c003014181");
        assertThat(console.openSession(CipherSuite.SUITE_17, 1)[1]).as("suite 17, no longer enabled")
                .isEqualTo((byte) 0x11);
        console.login("admin", PASSWORD, 3);
        assertThat(bmc.cipherSuitesQueries()).isEqualTo(2);
        BmcProtocol silent = bmc(spec().silentOnCipherSuitesQuery(true));
        TestConsole.direct(silent).exchange(query);
        assertThat(silent.cipherSuitesQueries()).as("unanswered queries count too").isEqualTo(1);
    }

    @Test
    @DisplayName("silentOnRakp3: RAKP 2 is sent, RAKP 3 goes unanswered and opens no session, right code or wrong")
    void silentOnRakp3() {
        BmcProtocol bmc = bmc(spec().silentOnRakp3(true));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        Attempt right = console.start("admin", 17, TestConsole.ROLE_ADMIN_NAME_ONLY);
        assertThat(right.rakp2Status).as("RAKP 2 status").isZero();
        assertThat(right.rakp3(PASSWORD)).as("RAKP 4").isNull();
        Attempt wrong = console.start("admin", 17, TestConsole.ROLE_ADMIN_NAME_ONLY);
        assertThat(wrong.rakp3("not-the-password")).as("RAKP 4").isNull();
        assertThat(bmc.activeSessions()).isZero();
    }

    private static int status(TestConsole console, byte[] request) {
        byte[] answer = console.unsessioned(0x10, request);
        assertThat(answer).as("error answers carry tag, status, reserved and the console id").hasSize(8);
        return answer[1];
    }

    @Test
    @DisplayName("an Open Session beyond the session slots gets 0x01 until a session closes")
    void sessionSlots() {
        BmcProtocol bmc = bmc(spec().maxSessions(2));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        Session first = console.login("admin", PASSWORD, 3);
        console.login("admin", PASSWORD, 17);

        assertThat(console.start("admin", 3, 0x14).openStatus).isEqualTo(0x01);
        first.close();
        console.login("admin", PASSWORD, 3);
        assertThat(bmc.sessionsOpened()).isEqualTo(3);
    }

    @Test
    @DisplayName("Chassis Control needs OPERATOR: 0xD4 below it; Set Session Privilege refuses 0x80 and 0x81")
    void privileges() {
        BmcProtocol bmc = bmc(spec());
        TestConsole console = new TestConsole(TestConsole.direct(bmc));

        Session viewer = console.start("viewer", 3, 0x12).complete("viewer-pass");
        assertThat(viewer.chassisStatus().completionCode()).isZero();
        assertThat(viewer.chassisControl(0).completionCode()).isEqualTo(0xd4);
        assertThat(viewer.setPrivilege(Privilege.OPERATOR).completionCode()).isEqualTo(0x80);

        Session operator = console.start("operator", 3, 0x12).complete("operator-pass");
        assertThat(operator.chassisControl(0).completionCode()).as("sessions start at USER").isEqualTo(0xd4);
        assertThat(operator.setPrivilege(Privilege.OPERATOR).completionCode())
                .as("above the role asked in RAKP 1").isEqualTo(0x81);

        Session admin = console.login("admin", PASSWORD, 3);
        assertThat(admin.setPrivilege(Privilege.OPERATOR).data()).containsExactly(0x03);
        assertThat(admin.call(NETFN_APP, 0x3b, 0).data()).as("level 0 reads the level").containsExactly(0x03);
        assertThat(admin.chassisControl(0).completionCode()).isZero();
        assertThat(bmc.power.power()).isEqualTo(PowerState.OFF);
        assertThat(bmc.chassisControls()).containsExactly(0);
    }

    @Test
    @DisplayName("a flipped AuthCode bit, an older sequence number and a replay are dropped without an answer")
    void integrityAndReplay() {
        BmcProtocol bmc = bmc(spec());
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        Session session = console.login("admin", PASSWORD, 17);
        session.setPrivilege(Privilege.ADMINISTRATOR);

        byte[] tampered = session.request(NETFN_CHASSIS, 0x02, 0);
        tampered[tampered.length - 1] ^= 1;
        assertThat(console.exchange(tampered)).isNull();

        byte[] early = session.requestAt(10, 20, NETFN_CHASSIS, 0x01);
        byte[] later = session.requestAt(11, 21, NETFN_CHASSIS, 0x01);
        assertThat(session.reply(console.exchange(later)).completionCode()).isZero();
        assertThat(session.reply(console.exchange(early)).completionCode()).as("within the window").isZero();
        assertThat(console.exchange(later)).as("replay of an earlier packet").isNull();
        assertThat(console.exchange(session.requestAt(60, 22, NETFN_CHASSIS, 0x01))).isNotNull();
        assertThat(console.exchange(session.requestAt(12, 23, NETFN_CHASSIS, 0x01))).as("too far behind").isNull();
        assertThat(bmc.power.history()).as("the tampered power down never ran").isEmpty();
    }

    @Test
    @DisplayName("the same datagram sent again gets the same answer; a power cycle retransmitted runs once")
    void retransmissions() {
        BmcProtocol bmc = bmc(spec());
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        Session session = console.login("admin", PASSWORD, 3);
        session.setPrivilege(Privilege.ADMINISTRATOR);

        byte[] cycle = session.requestAt(50, 30, NETFN_CHASSIS, 0x02, 2);
        byte[] first = console.exchange(cycle);
        byte[] again = console.exchange(cycle);
        byte[] resent = console.exchange(session.requestAt(51, 30, NETFN_CHASSIS, 0x02, 2));

        assertThat(again).isEqualTo(first);
        assertThat(session.reply(resent).completionCode()).isZero();
        assertThat(session.reply(resent).rqSeq()).isEqualTo(30);
        assertThat(bmc.chassisControls()).containsExactly(2);
        assertThat(bmc.power.history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("a retransmitted Open Session, RAKP 1 or RAKP 3 gets the same answer and no second session")
    void handshakeRetransmissions() {
        BmcProtocol bmc = bmc(spec().maxSessions(1));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        byte[] open = TestConsole.openSessionRequest(0, 9, 1, 1, 1);

        byte[] first = console.unsessioned(0x10, open);
        byte[] second = console.unsessioned(0x10, open);

        assertThat(second).isEqualTo(first);
        assertThat(bmc.slotsInUse()).isEqualTo(1);
    }

    @Test
    @DisplayName("failNextCommand answers the next matching request once with the code, then runs it normally")
    void injectedFailure() {
        BmcProtocol bmc = bmc(spec());
        Session session = new TestConsole(TestConsole.direct(bmc)).login("admin", PASSWORD, 3);
        session.setPrivilege(Privilege.ADMINISTRATOR);
        bmc.failNext(0x00, 0x02, 0xc0);

        assertThat(session.chassisControl(0).completionCode()).isEqualTo(0xc0);
        assertThat(bmc.power.power()).isEqualTo(PowerState.ON);
        assertThat(session.chassisControl(0).completionCode()).isZero();
        assertThat(bmc.power.power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("unknown commands get 0xC1, a power cycle while off 0xD5, a hard reset keeps power and history")
    void chassisEdges() {
        BmcProtocol bmc = bmc(spec());
        Session session = new TestConsole(TestConsole.direct(bmc)).login("admin", PASSWORD, 3);
        session.setPrivilege(Privilege.ADMINISTRATOR);

        assertThat(session.call(0x2c, 0x3e, 0, 2).completionCode()).isEqualTo(0xc1);
        assertThat(session.chassisControl(3).completionCode()).isZero();
        assertThat(bmc.resets.get()).isEqualTo(1);
        assertThat(session.chassisControl(4).completionCode()).as("diagnostic interrupt").isEqualTo(0xcc);
        assertThat(session.chassisControl(5).completionCode()).as("soft shutdown").isZero();
        assertThat(bmc.power.power()).isEqualTo(PowerState.OFF);
        assertThat(session.chassisControl(2).completionCode()).isEqualTo(0xd5);
        assertThat(session.chassisControl(3).completionCode()).isEqualTo(0xd5);
        assertThat(bmc.power.history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("Close Session of another session needs ADMINISTRATOR; an unknown id gets 0x87")
    void closeOtherSessions() {
        BmcProtocol bmc = bmc(spec());
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        Session viewer = console.start("viewer", 3, 0x12).complete("viewer-pass");
        Session admin = console.login("admin", PASSWORD, 3);

        assertThat(viewer.closeOther(admin.bmcId).completionCode()).isEqualTo(0xd4);
        assertThat(admin.closeOther(0x12345678).completionCode()).isEqualTo(0x87);
        admin.setPrivilege(Privilege.ADMINISTRATOR);
        assertThat(admin.closeOther(viewer.bmcId).completionCode()).isZero();
        assertThat(bmc.activeSessions()).isEqualTo(1);
        assertThat(viewer.chassisStatus()).isNull();
    }

    @Test
    @DisplayName("idle sessions go after the idle timeout, stale handshakes after the handshake timeout")
    void expiry() {
        BmcProtocol bmc = bmc(spec().idleTimeout(Duration.ofSeconds(60)).handshakeTimeout(Duration.ofSeconds(5)));
        TestConsole console = new TestConsole(TestConsole.direct(bmc));
        Session session = console.login("admin", PASSWORD, 3);
        console.start("admin", 3, 0x14);
        assertThat(bmc.slotsInUse()).isEqualTo(2);

        clock.advance(Duration.ofSeconds(6));
        bmc.expire();
        assertThat(bmc.slotsInUse()).isEqualTo(1);
        assertThat(session.chassisStatus().completionCode()).isZero();

        clock.advance(Duration.ofSeconds(61));
        bmc.expire();
        assertThat(bmc.activeSessions()).isZero();
        assertThat(bmc.slotsInUse()).isZero();
        assertThat(session.chassisStatus()).isNull();
    }

    @Test
    @DisplayName("with a power change delay, chassis status keeps the old state until the delay has passed")
    void powerChangeDelay() {
        BmcProtocol bmc = bmc(spec());
        bmc.power.delay(Duration.ofSeconds(3));
        Session session = new TestConsole(TestConsole.direct(bmc)).login("admin", PASSWORD, 3);
        session.setPrivilege(Privilege.ADMINISTRATOR);

        session.chassisControl(0);
        clock.advance(Duration.ofSeconds(2));
        assertThat(session.chassisStatus().data()[0] & 1).isEqualTo(1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(session.chassisStatus().data()[0] & 1).isZero();
    }
}
