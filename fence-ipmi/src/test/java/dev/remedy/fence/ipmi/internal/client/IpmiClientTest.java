package dev.remedy.fence.ipmi.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.remedy.fence.ipmi.internal.client.IpmiException.Kind;
import dev.remedy.fence.ipmi.internal.protocol.ChassisControl;
import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.Privilege;
import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The client against the BMC simulator of remedy-simulators (an independent implementation of the server side).
 * Each test has its own client (what one client remembers of a BMC does not leak into another test) and its own
 * BMCs, each on a port of its own.
 */
class IpmiClientTest {

    private static final String PASSWORD = "client-secret-1";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static IpmiBmcSimulator simulator;
    private IpmiClient client;

    @BeforeAll
    static void start() {
        simulator = IpmiBmcSimulator.start();
    }

    @AfterAll
    static void stop() {
        simulator.close();
    }

    @BeforeEach
    void createClient() {
        client = IpmiClient.create();
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private static SimulatedBmc bmc(BmcSpec.Builder spec) {
        return simulator.add(spec.build());
    }

    private static BmcSpec.Builder admin() {
        return BmcSpec.builder().user("admin", PASSWORD);
    }

    private static BmcLogin login(SimulatedBmc bmc, String user, String password) {
        return BmcLogin.of(bmc.address(), user, Secret.of(password));
    }

    private static IpmiException failure(CompletableFuture<?> future) {
        Throwable thrown = catchThrowable(future::join);
        assertThat(thrown).isInstanceOf(CompletionException.class).hasCauseInstanceOf(IpmiException.class);
        return (IpmiException) thrown.getCause();
    }

    @Test
    @DisplayName("a session negotiates suite 17 when offered, reads and switches power, and closes its BMC slot")
    void negotiatesSuite17AndCloses() {
        SimulatedBmc bmc = bmc(admin());
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(session.suite()).isEqualTo(CipherSuite.SUITE_17);
        assertThat(session.chassisStatus(TIMEOUT).join().powerOn()).isTrue();
        session.chassisControl(ChassisControl.POWER_DOWN, TIMEOUT).join();
        assertThat(session.chassisStatus(TIMEOUT).join().powerOn()).isFalse();
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(bmc.activeSessions()).isEqualTo(1);
        session.close().join();
        assertThat(bmc.activeSessions()).isZero();
        assertThat(session.isOpen()).isFalse();
        assertThat(failure(session.chassisStatus(TIMEOUT)).kind()).isEqualTo(Kind.CANCELLED);
    }

    @Test
    @DisplayName("a BMC that does not list its suites and refuses suite 17 gets suite 3, and the client remembers it")
    void fallsBackToSuite3AndRemembers() {
        SimulatedBmc bmc = bmc(admin().cipherSuites(3).silentOnCipherSuitesQuery(true));
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(session.suite()).isEqualTo(CipherSuite.SUITE_3);
        long queries = bmc.cipherSuitesQueries();
        assertThat(queries).as("Get Channel Cipher Suites of the first setup, left unanswered").isPositive();
        session.close().join();
        AtomicInteger second = new AtomicInteger();
        IpmiSession again = client.open(login(bmc, "admin", PASSWORD), TIMEOUT, second).join();
        assertThat(again.suite()).isEqualTo(CipherSuite.SUITE_3);
        assertThat(bmc.cipherSuitesQueries()).as("Get Channel Cipher Suites of both setups").isEqualTo(queries);
        assertThat(second.get()).as("datagrams of the second setup: Get Channel Authentication Capabilities, Open"
                + " Session, RAKP 1 and RAKP 3, no cipher-suite query and no refused Open Session").isEqualTo(4);
        assertThat(bmc.proposedSuites()).as("Open Session proposals of both setups").containsExactly(17, 3, 3);
        again.close().join();
    }

    @Test
    @DisplayName("cipher unset: the second session with a BMC proposes the suite it accepted, without asking its suites")
    void secondSessionAsksNoSuites() {
        SimulatedBmc bmc = bmc(admin().user("operator", PASSWORD));
        client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join().close().join();
        long queries = bmc.cipherSuitesQueries();
        assertThat(queries).as("Get Channel Cipher Suites of the first setup").isEqualTo(1);
        IpmiSession again = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(again.suite()).isEqualTo(CipherSuite.SUITE_17);
        again.close().join();
        assertThat(bmc.cipherSuitesQueries()).as("Get Channel Cipher Suites after the second setup")
                .isEqualTo(queries);
        assertThat(bmc.proposedSuites()).as("Open Session proposals").containsExactly(17, 17);
        client.open(login(bmc, "operator", PASSWORD), TIMEOUT).join().close().join();
        assertThat(bmc.cipherSuitesQueries()).as("another user's first setup asks again").isEqualTo(queries + 1);
        assertThat(client.open(login(bmc, "admin", PASSWORD).withSuites(List.of(CipherSuite.SUITE_3)), TIMEOUT)
                .join().suite()).as("an explicit suite is proposed, whatever was remembered")
                .isEqualTo(CipherSuite.SUITE_3);
    }

    @Test
    @DisplayName("cipher unset: a BMC that no longer accepts the remembered suite is asked its suites again")
    void changedSuitesAreAskedAgain() {
        SimulatedBmc bmc = bmc(admin());
        client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join().close().join();
        long queries = bmc.cipherSuitesQueries();
        bmc.cipherSuites(3);
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(session.suite()).isEqualTo(CipherSuite.SUITE_3);
        session.close().join();
        assertThat(bmc.cipherSuitesQueries()).as("Get Channel Cipher Suites once the remembered suite was refused")
                .isEqualTo(queries + 1);
        assertThat(bmc.proposedSuites()).as("Open Session proposals: 17 listed, 17 remembered and refused, then 3"
                + " listed").containsExactly(17, 17, 3);
        client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join().close().join();
        assertThat(bmc.cipherSuitesQueries()).as("the new suite is remembered").isEqualTo(queries + 1);
        assertThat(bmc.proposedSuites()).last().isEqualTo(3);
    }

    @Test
    @DisplayName("a BMC that answers RAKP 1 but never RAKP 3: the timeout names a wrong password or privlvl, not ip")
    void silentAfterRakp3() {
        SimulatedBmc bmc = bmc(admin().silentOnRakp3(true));
        IpmiException error = failure(client.open(login(bmc, "admin", PASSWORD), Duration.ofMillis(800)));
        assertThat(error.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(error.getMessage()).contains("went silent after RAKP 3").contains("wrong password")
                .contains("'admin'").contains("privlvl administrator").doesNotContain("ipport")
                .doesNotContain(PASSWORD);
        assertThat(client.pendingRoutes()).as("routes left by the failed setup").isZero();
    }

    @Test
    @DisplayName("cipher unset: the client reads the BMC's cipher suites (two pages) and proposes the strongest it lists")
    void proposesOnlyASuiteTheBmcLists() {
        SimulatedBmc bmc = bmc(admin().cipherSuites(0, 1, 2, 15, 16, 3));
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(session.suite()).isEqualTo(CipherSuite.SUITE_3);
        assertThat(bmc.proposedSuites()).as("Open Session proposals").containsExactly(3);
        session.close().join();
        SimulatedBmc both = bmc(admin().cipherSuites(3, 17));
        IpmiSession strongest = client.open(login(both, "admin", PASSWORD), TIMEOUT).join();
        assertThat(strongest.suite()).isEqualTo(CipherSuite.SUITE_17);
        strongest.close().join();
    }

    @Test
    @DisplayName("cipher unset: a BMC that lists no suite this agent speaks is refused before any Open Session")
    void refusesABmcWithoutACommonSuite() {
        SimulatedBmc bmc = bmc(admin().cipherSuites(1, 2));
        IpmiException error = failure(client.open(login(bmc, "admin", PASSWORD), TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.UNSUPPORTED);
        assertThat(error.getMessage()).contains("offers cipher suites [1, 2]").contains("none of 17 or 3");
        assertThat(bmc.proposedSuites()).as("Open Session proposals").isEmpty();
        assertThat(client.pendingRoutes()).as("routes left by the failed setup").isZero();
    }

    @Test
    @DisplayName("an explicit suite the BMC lacks is refused as unsupported, without trying another")
    void explicitSuiteIsHonoured() {
        SimulatedBmc bmc = bmc(admin().cipherSuites(3));
        IpmiException error = failure(client.open(login(bmc, "admin", PASSWORD).withSuites(List.of(
                CipherSuite.SUITE_17)), TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.UNSUPPORTED);
        assertThat(error.getMessage()).contains(bmc.host() + ":" + bmc.port()).contains("cipher");
    }

    @Test
    @DisplayName("cipher unset: a BMC that answers a proposal of suite 17 with suite 3's algorithms gets a suite 3 session")
    void acceptsTheAllowedSuiteTheBmcChose() {
        SimulatedBmc bmc = bmc(admin().forcedSuite(3));
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(session.suite()).isEqualTo(CipherSuite.SUITE_3);
        session.chassisControl(ChassisControl.POWER_DOWN, TIMEOUT).join();
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.OFF);
        session.close().join();
        assertThat(bmc.activeSessions()).isZero();
    }

    @Test
    @DisplayName("cipher=17: a BMC that answers with suite 3's algorithms is refused, naming them, and its slot freed")
    void refusesASuiteTheUserDidNotAllow() {
        SimulatedBmc bmc = bmc(admin().forcedSuite(3).maxSessions(1));
        IpmiException error = failure(client.open(login(bmc, "admin", PASSWORD).withSuites(List.of(
                CipherSuite.SUITE_17)), TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.UNSUPPORTED);
        assertThat(error.getMessage()).contains("answered Open Session for cipher suite 17 with authentication "
                + "RAKP-HMAC-SHA1, integrity HMAC-SHA1-96, confidentiality AES-CBC-128 (cipher suite 3)")
                .contains("not a suite allowed here (17)").contains("set cipher=3");
        assertThat(client.pendingRoutes()).as("routes left by the failed setup").isZero();
        IpmiSession next = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        assertThat(next.suite()).as("the only slot was freed for the next session").isEqualTo(CipherSuite.SUITE_3);
        next.close().join();
    }

    @Test
    @DisplayName("a wrong password fails authentication, names the user but not the password, and frees the slot")
    void wrongPassword() {
        SimulatedBmc bmc = bmc(admin());
        IpmiException error = failure(client.open(login(bmc, "admin", "wrong-password-9"), TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(error.getMessage()).contains("'admin'").doesNotContain("wrong-password-9").doesNotContain(PASSWORD);
        assertThat(bmc.activeSessions()).isZero();
    }

    @Test
    @DisplayName("an unknown user fails authentication")
    void unknownUser() {
        SimulatedBmc bmc = bmc(admin());
        IpmiException error = failure(client.open(login(bmc, "nobody", PASSWORD), TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(error.getMessage()).contains("'nobody'");
    }

    @Test
    @DisplayName("a BMC that drops RAKP 1 for an unknown user: the timeout says it went silent at RAKP 1, not to check ip")
    void unknownUserOnSilentBmc() {
        SimulatedBmc bmc = bmc(admin().silentOnUnknownUser(true));
        IpmiException error = failure(client.open(login(bmc, "nobody", PASSWORD), Duration.ofMillis(800)));
        assertThat(error.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(error.getMessage()).contains("answered Get Channel Authentication Capabilities and Open Session")
                .contains("went silent at RAKP 1").contains("check username").contains("'nobody'")
                .doesNotContain("ipport");
        assertThat(client.pendingRoutes()).as("routes left by the failed setup").isZero();
    }

    @Test
    @DisplayName("a read-only user can read status but Chassis Control fails for lack of privilege")
    void privilege() {
        SimulatedBmc bmc = bmc(admin().user("viewer", PASSWORD, dev.remedy.simulators.ipmi.Privilege.USER));
        BmcLogin viewer = new BmcLogin(bmc.address(), "viewer", Secret.of(PASSWORD), Optional.empty(),
                BmcLogin.NEGOTIATED, Privilege.USER, true, BmcLogin.DEFAULT_RETRANSMIT_INTERVAL);
        IpmiSession session = client.open(viewer, TIMEOUT).join();
        assertThat(session.chassisStatus(TIMEOUT).join().powerOn()).isTrue();
        assertThat(failure(session.chassisControl(ChassisControl.POWER_DOWN, TIMEOUT)).kind())
                .isEqualTo(Kind.PRIVILEGE);
        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.ON);
        session.close().join();
    }

    @Test
    @DisplayName("an absent BMC times out by the deadline after several resends")
    void absentBmcTimesOut() {
        SimulatedBmc bmc = bmc(admin()).responsive(false);
        AtomicInteger packets = new AtomicInteger();
        long start = System.nanoTime();
        IpmiException error = failure(client.open(login(bmc, "admin", PASSWORD), Duration.ofMillis(800), packets));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(error.kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(error.getMessage()).contains("Get Channel Authentication Capabilities").contains("ipport");
        assertThat(took).isBetween(Duration.ofMillis(700), Duration.ofMillis(1_500));
        assertThat(client.pendingRoutes()).as("routes left by the failed setup").isZero();
        assertThat(packets.get()).as("Get Channel Authentication Capabilities sent at 0, 250 and 750 ms, Get Channel "
                + "Cipher Suites at 0 and 250 ms until half the time, then Open Session at 400 and 650 ms (the last of "
                + "each may miss its deadline on a busy machine)").isBetween(4, 7);
    }

    @Test
    @DisplayName("lost datagrams are resent and the exchange still succeeds")
    void resendsLostDatagrams() {
        SimulatedBmc bmc = bmc(admin());
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        bmc.dropNext(2);
        assertThat(session.chassisStatus(TIMEOUT).join().powerOn()).isTrue();
        session.close().join();
        assertThat(bmc.activeSessions()).isZero();
    }

    @Test
    @DisplayName("a busy completion code is reported as BUSY, and the session stays usable")
    void busy() {
        SimulatedBmc bmc = bmc(admin()).failNextCommand(0x00, 0x01, 0xC0);
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        IpmiException error = failure(session.chassisStatus(TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.BUSY);
        assertThat(error.getMessage()).contains("node busy (0xc0)");
        assertThat(session.chassisStatus(TIMEOUT).join().powerOn()).isTrue();
        session.close().join();
    }

    @Test
    @DisplayName("a command the BMC does not implement is reported as UNSUPPORTED, naming the command")
    void unsupportedCommand() {
        SimulatedBmc bmc = bmc(admin()).failNextCommand(0x00, 0x02, 0xC1);
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        IpmiException error = failure(session.chassisControl(ChassisControl.SOFT_SHUTDOWN, TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.UNSUPPORTED);
        assertThat(error.getMessage()).contains("Chassis Control").contains("invalid or unsupported command (0xc1)")
                .contains(bmc.host() + ":" + bmc.port());
        session.close().join();
    }

    @Test
    @DisplayName("a BMC out of session slots answers BUSY")
    void noFreeSlot() {
        SimulatedBmc bmc = bmc(admin().maxSessions(1));
        IpmiSession held = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        IpmiException error = failure(client.open(login(bmc, "admin", PASSWORD), TIMEOUT));
        assertThat(error.kind()).isEqualTo(Kind.BUSY);
        assertThat(error.getMessage()).contains("session slots");
        held.close().join();
    }

    @Test
    @DisplayName("a BMC key is used when set, and a wrong or missing one fails authentication")
    void bmcKey() {
        SimulatedBmc bmc = bmc(admin().bmcKeyHex("00112233445566778899"));
        BmcLogin plain = login(bmc, "admin", PASSWORD);
        BmcLogin right = new BmcLogin(bmc.address(), "admin", Secret.of(PASSWORD),
                Optional.of(Secret.of("00112233445566778899")), BmcLogin.NEGOTIATED, Privilege.ADMINISTRATOR, true,
                BmcLogin.DEFAULT_RETRANSMIT_INTERVAL);
        BmcLogin wrong = new BmcLogin(bmc.address(), "admin", Secret.of(PASSWORD),
                Optional.of(Secret.of("ffeeddccbbaa99887766")), BmcLogin.NEGOTIATED, Privilege.ADMINISTRATOR, true,
                BmcLogin.DEFAULT_RETRANSMIT_INTERVAL);
        IpmiSession session = client.open(right, TIMEOUT).join();
        session.chassisStatus(TIMEOUT).join();
        session.close().join();
        assertThat(failure(client.open(wrong, TIMEOUT)).getMessage()).contains("hexadecimal_kg")
                .doesNotContain("ffeeddcc");
        assertThat(failure(client.open(plain, TIMEOUT)).kind()).isEqualTo(Kind.AUTHENTICATION);
    }

    @Test
    @DisplayName("one I/O thread serves 200 BMCs at once")
    void manyAtOnce() {
        List<SimulatedBmc> fleet = simulator.addMany(200, admin().build());
        List<CompletableFuture<Boolean>> runs = fleet.stream()
                .map(bmc -> client.open(login(bmc, "admin", PASSWORD), TIMEOUT).thenCompose(session -> session
                        .chassisStatus(TIMEOUT).thenCompose(status -> session.close().thenApply(v -> status.powerOn()))))
                .toList();
        assertThat(runs).allSatisfy(run -> assertThat(run.join()).isTrue());
        assertThat(fleet).allSatisfy(bmc -> assertThat(bmc.activeSessions()).isZero());
        assertThat(client.ioThreads()).isEqualTo(1);
    }

    @Test
    @DisplayName("cancelling a session setup abandons it without leaving a session open")
    void cancelSetup() {
        SimulatedBmc bmc = bmc(admin()).responsive(false);
        CompletableFuture<IpmiSession> opening = client.open(login(bmc, "admin", PASSWORD), TIMEOUT);
        opening.cancel(false);
        assertThat(opening).isCancelled();
        bmc.responsive(true);
        long resendsOver = System.nanoTime() + Duration.ofMillis(600).toNanos();
        while (System.nanoTime() < resendsOver) {
            Thread.onSpinWait();
        }
        assertThat(bmc.sessionsOpened()).as("sessions the abandoned setup opened after resending").isZero();
        IpmiSession session = client.open(login(bmc, "admin", PASSWORD), TIMEOUT).join();
        session.close().join();
        assertThat(bmc.activeSessions()).isZero();
        assertThat(client.pendingRoutes()).as("routes the client still holds").isZero();
    }

    @Test
    @DisplayName("logins check their limits and hide the password")
    void loginLimits() {
        SimulatedBmc bmc = bmc(admin());
        assertThat(catchThrowable(() -> login(bmc, "a-very-long-user-name", PASSWORD)))
                .hasMessageContaining("at most 16");
        assertThat(catchThrowable(() -> login(bmc, "admin", "password-longer-than-twenty")))
                .hasMessageContaining("20 bytes").hasMessageNotContaining("password-longer");
        assertThat(login(bmc, "admin", PASSWORD).toString()).doesNotContain(PASSWORD);
    }
}
