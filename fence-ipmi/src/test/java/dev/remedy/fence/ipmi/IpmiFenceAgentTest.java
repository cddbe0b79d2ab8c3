package dev.remedy.fence.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the ipmi agent adds to the contract: confirmation, power cycles, soft off, reuse and cancellation. */
class IpmiFenceAgentTest {

    private static final String PASSWORD = "agent-secret-12";

    private static IpmiBmcSimulator simulator;
    private static IpmiTransport transport;
    private static IpmiFenceAgentProvider provider;

    @BeforeAll
    static void start() {
        simulator = IpmiBmcSimulator.start();
        transport = IpmiTransport.create();
        provider = new IpmiFenceAgentProvider(transport);
    }

    @AfterAll
    static void stop() {
        transport.close();
        simulator.close();
    }

    private static SimulatedBmc bmc() {
        return simulator.add(BmcSpec.builder().user("admin", PASSWORD).build());
    }

    private static AgentConfig.Builder config(SimulatedBmc bmc) {
        return provider.configure().set("ip", bmc.host()).set("ipport", Integer.toString(bmc.port()))
                .set("username", "admin").secret("password", Secret.of(PASSWORD)).set("poll_interval", "20ms");
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action, List<String> progress)
            throws InterruptedException {
        try (FenceAgent agent = provider.create(config)) {
            return agent.execute(new FenceRequest(action, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5), progress::add));
        }
    }

    @Test
    @DisplayName("OFF polls until the BMC reads OFF, then reports it confirmed, and closes the session")
    void offIsConfirmed() throws InterruptedException {
        SimulatedBmc bmc = bmc().powerChangeDelay(Duration.ofMillis(150));
        List<String> progress = new ArrayList<>();
        FenceOutcome outcome = run(config(bmc).build(), FenceAction.OFF, progress);
        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.power()).isEqualTo(PowerState.OFF);
        assertThat(outcome.detail()).contains("(confirmed)");
        assertThat(outcome.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
        assertThat(progress).anyMatch(line -> line.contains("waiting for BMC"));
        assertThat(bmc.chassisControls()).containsExactly(0);
        assertThat(bmc.activeSessions()).isZero();
    }

    @Test
    @DisplayName("attempts count tries of the action, not datagrams: resends show only in the debug log (--verbose)")
    void attemptsAreTriesNotDatagrams() throws InterruptedException {
        SimulatedBmc bmc = bmc().dropNext(2);
        Logger log = Logger.getLogger(IpmiRun.class.getName());
        List<String> debug = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord entry) {
                debug.add(String.valueOf(entry.getMessage()) + " " + List.of(entry.getParameters() == null
                        ? new Object[0] : entry.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level before = log.getLevel();
        log.setLevel(Level.FINE);
        log.addHandler(capture);
        List<String> progress = new ArrayList<>();
        FenceOutcome outcome;
        try {
            outcome = run(config(bmc).set("retransmit_interval", "50ms").build(), FenceAction.OFF, progress);
        } finally {
            log.removeHandler(capture);
            log.setLevel(before);
        }
        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(bmc.chassisControls()).containsExactly(0);
        assertThat(outcome.attempts()).as("one Chassis Control sent, whatever the datagrams: %s", outcome)
                .isEqualTo(1);
        assertThat(outcome.detail()).doesNotContain("datagram");
        assertThat(progress).noneMatch(line -> line.contains("datagram"));
        assertThat(debug).as("the datagram count, resends included, in the debug log").anyMatch(line ->
                line.contains("datagrams") && line.contains("OFF"));
    }

    @Test
    @DisplayName("a BMC that never reads OFF fails after power_timeout, with the last power read")
    void offThatNeverHappens() throws InterruptedException {
        SimulatedBmc bmc = bmc().powerChangeDelay(Duration.ofSeconds(30));
        FenceOutcome outcome = run(config(bmc).set("power_timeout", "300ms").build(), FenceAction.OFF, new ArrayList<>());
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.power()).isEqualTo(PowerState.ON);
        assertThat(outcome.detail()).contains("still reports power ON").contains("power_timeout");
    }

    @Test
    @DisplayName("method=cycle fails when no OFF is observed between the cycle and ON: that is not a fence")
    void cycleNeedsAnObservedOff() throws InterruptedException {
        SimulatedBmc instant = bmc();
        FenceOutcome unobserved = run(config(instant).set("method", "cycle").set("power_timeout", "200ms").build(),
                FenceAction.REBOOT, new ArrayList<>());
        assertThat(unobserved.status()).as("a cycle whose OFF nobody saw: %s", unobserved).isEqualTo(FenceStatus.FAILED);
        assertThat(unobserved.detail()).contains("not a confirmed fence");
        assertThat(instant.chassisControls()).containsExactly(2);
        assertThat(instant.powerTarget().history()).as("the simulated host did cycle").containsSubsequence(
                PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("a method=cycle the BMC refuses reports the power state read back after the refusal, not UNKNOWN")
    void failedCycleReadsPowerBack() throws InterruptedException {
        SimulatedBmc off = simulator.add(BmcSpec.builder().user("admin", PASSWORD).initialPower(PowerState.OFF)
                .build());
        FenceOutcome refusedWhileOff = run(config(off).set("method", "cycle").build(), FenceAction.REBOOT,
                new ArrayList<>());
        assertThat(refusedWhileOff.status()).as("%s", refusedWhileOff).isEqualTo(FenceStatus.FAILED);
        assertThat(refusedWhileOff.power()).as("read back after the refusal: %s", refusedWhileOff)
                .isEqualTo(PowerState.OFF);

        SimulatedBmc busy = bmc().failNextCommand(0x00, 0x02, 0xC0);
        FenceOutcome refusedWhileOn = run(config(busy).set("method", "cycle").build(), FenceAction.REBOOT,
                new ArrayList<>());
        assertThat(refusedWhileOn.status()).as("%s", refusedWhileOn).isEqualTo(FenceStatus.FAILED);
        assertThat(refusedWhileOn.power()).as("read back after the refusal: %s", refusedWhileOn)
                .isEqualTo(PowerState.ON);
        assertThat(busy.powerTarget().history()).as("nothing was switched").doesNotContain(PowerState.OFF);
    }

    @Test
    @DisplayName("soft_off_timeout asks the OS to shut down first (ACPI soft off) and stops there when it works")
    void softOff() throws InterruptedException {
        SimulatedBmc bmc = bmc();
        FenceOutcome outcome = run(config(bmc).set("soft_off_timeout", "1s").build(), FenceAction.OFF,
                new ArrayList<>());
        assertThat(outcome.isSuccess()).isTrue();
        assertThat(bmc.chassisControls()).containsExactly(5);
    }

    @Test
    @DisplayName("session_reuse keeps one session for repeated STATUS polls and closes it with the agent")
    void sessionReuse() throws InterruptedException {
        SimulatedBmc bmc = bmc();
        try (FenceAgent agent = provider.create(config(bmc).set("session_reuse", "true").build())) {
            for (int i = 0; i < 5; i++) {
                FenceOutcome outcome = agent.execute(new FenceRequest(FenceAction.STATUS, "poll"),
                        FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)));
                assertThat(outcome.power()).isEqualTo(PowerState.ON);
            }
            assertThat(bmc.sessionsOpened()).isEqualTo(1);
            assertThat(bmc.activeSessions()).isEqualTo(1);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (bmc.activeSessions() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(bmc.activeSessions()).isZero();
    }

    @Test
    @DisplayName("cancelling executeAsync stops the action and closes the session")
    void cancel() throws InterruptedException {
        SimulatedBmc bmc = bmc().powerChangeDelay(Duration.ofSeconds(30));
        try (FenceAgent agent = provider.create(config(bmc).build())) {
            CompletableFuture<FenceOutcome> outcome = agent.executeAsync(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(20)), Runnable::run);
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (bmc.chassisControls().isEmpty() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            outcome.cancel(false);
            while (bmc.activeSessions() > 0 && System.nanoTime() < deadline + Duration.ofSeconds(2).toNanos()) {
                Thread.onSpinWait();
            }
            assertThat(bmc.chassisControls()).containsExactly(0);
            assertThat(bmc.activeSessions()).isZero();
        }
    }

    @Test
    @DisplayName("MONITOR reads the device id without touching power; LIST is unsupported")
    void monitorAndList() throws InterruptedException {
        SimulatedBmc bmc = bmc();
        FenceOutcome monitor = run(config(bmc).build(), FenceAction.MONITOR, new ArrayList<>());
        assertThat(monitor.isSuccess()).isTrue();
        assertThat(monitor.detail()).contains("Get Device ID").contains("IPMI 2.0");
        assertThat(run(config(bmc).build(), FenceAction.LIST, new ArrayList<>()).status())
                .isEqualTo(FenceStatus.UNSUPPORTED);
        assertThat(bmc.chassisControls()).isEmpty();
    }

    @Test
    @DisplayName("a BMC address that does not resolve is a failure that names the ip parameter")
    void unresolvable() throws InterruptedException {
        FenceOutcome outcome = run(provider.configure().set("ip", "no-such-bmc.invalid").set("username", "admin")
                .secret("password", Secret.of(PASSWORD)).build(), FenceAction.STATUS, new ArrayList<>());
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("no-such-bmc.invalid").contains("check ip");
    }

    @Test
    @DisplayName("an outcome's detail carries no status word of its own: the outcome's status is the only one on its "
            + "line (no 'OFF timed out: ... OFF failed:')")
    void oneStatusWordPerOutcome() throws InterruptedException {
        SimulatedBmc bmc = bmc();
        FenceOutcome wrongPassword = run(config(bmc).secret("password", Secret.of("not-the-password")).build(),
                FenceAction.OFF, new ArrayList<>());
        assertThat(wrongPassword.status()).isEqualTo(FenceStatus.FAILED);
        bmc.failNextCommand(0x00, 0x02, 0xC0);
        FenceOutcome busy = run(config(bmc).build(), FenceAction.OFF, new ArrayList<>());
        assertThat(busy.status()).isEqualTo(FenceStatus.FAILED);
        FenceOutcome absent = run(config(bmc().responsive(false)).set("login_timeout", "300ms").build(),
                FenceAction.STATUS, new ArrayList<>());
        assertThat(absent.status()).isEqualTo(FenceStatus.TIMED_OUT);
        for (FenceOutcome outcome : List.of(wrongPassword, busy, absent)) {
            assertThat(outcome.detail()).as("%s", outcome).startsWith("BMC " + bmc.host() + ":")
                    .doesNotContainPattern("(?i)\\b(OFF|STATUS) (failed|refused|timed out|succeeded)\\b");
        }
        assertThat(bmc.powerTarget().power()).as("nothing was switched").isEqualTo(PowerState.ON);
    }
}
