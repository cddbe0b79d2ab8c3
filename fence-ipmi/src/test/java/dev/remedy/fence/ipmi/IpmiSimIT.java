package dev.remedy.fence.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
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
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ipmi agent against OpenIPMI's {@code ipmi_sim} (a BMC we did not write), each power change witnessed by
 * the real {@code ipmitool}; and cipher suite 17, which ipmi_sim lacks, against the BMC simulator of remedy-simulators with
 * ipmitool as the witness.
 */
class IpmiSimIT {

    @TempDir
    static Path work;

    private static IpmiSimProcess sim;
    private static IpmiTransport transport;
    private static IpmiFenceAgentProvider provider;

    @BeforeAll
    static void start() throws IOException {
        PeerPrograms.require("ipmi_sim", "openipmi");
        PeerPrograms.require("ipmitool", "ipmitool");
        sim = IpmiSimProcess.start(work);
        transport = IpmiTransport.create();
        provider = new IpmiFenceAgentProvider(transport);
    }

    @AfterAll
    static void stop() {
        if (sim != null) {
            transport.close();
            sim.close();
        }
    }

    @BeforeEach
    void powerOn() {
        sim.powerTarget().power(PowerState.ON);
    }

    private static AgentConfig.Builder config() {
        return provider.configure().set("ip", sim.host()).set("ipport", Integer.toString(sim.port()))
                .set("username", sim.user()).secret("password", Secret.of(sim.password()));
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action, Duration budget)
            throws InterruptedException {
        try (FenceAgent agent = provider.create(config)) {
            return agent.execute(new FenceRequest(action, "it"), FenceContext.start(TimeSource.system(), budget));
        }
    }

    private static String ipmitool() throws IOException, InterruptedException {
        return Ipmitool.powerStatus(sim.host(), sim.port(), sim.user(), sim.password(), 3);
    }

    @Test
    @DisplayName("STATUS reads what ipmitool reads, with suite 17 refused by ipmi_sim and suite 3 negotiated")
    void status() throws Exception {
        FenceOutcome on = run(config().build(), FenceAction.STATUS, Duration.ofSeconds(10));
        assertThat(on.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(on.power()).isEqualTo(PowerState.ON);
        assertThat(ipmitool()).isEqualTo("on");
        sim.powerTarget().power(PowerState.OFF);
        assertThat(run(config().set("cipher", "3").build(), FenceAction.STATUS, Duration.ofSeconds(10)).power())
                .isEqualTo(PowerState.OFF);
        assertThat(ipmitool()).isEqualTo("off");
    }

    @Test
    @DisplayName("OFF is confirmed by the agent, and ipmitool then says off; ON brings it back")
    void offThenOn() throws Exception {
        FenceOutcome off = run(config().build(), FenceAction.OFF, Duration.ofSeconds(10));
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("(confirmed)");
        assertThat(sim.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(ipmitool()).isEqualTo("off");
        FenceOutcome on = run(config().build(), FenceAction.ON, Duration.ofSeconds(10));
        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(ipmitool()).isEqualTo("on");
    }

    @Test
    @DisplayName("REBOOT passes through a confirmed OFF and ends ON")
    void reboot() throws Exception {
        sim.powerTarget().clearHistory();
        FenceOutcome reboot = run(config().build(), FenceAction.REBOOT, Duration.ofSeconds(10));
        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(sim.powerTarget().history()).containsSubsequence(PowerState.OFF, PowerState.ON);
        assertThat(ipmitool()).isEqualTo("on");
    }

    @Test
    @DisplayName("a wrong password fails as an authentication failure well within the deadline")
    void wrongPassword() throws InterruptedException {
        long start = System.nanoTime();
        FenceOutcome outcome = run(config().secret("password", Secret.of("not-the-password")).build(),
                FenceAction.OFF, Duration.ofSeconds(5));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("password").doesNotContain("not-the-password");
        assertThat(sim.powerTarget().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("a wrong port is TIMED_OUT by the 2 s deadline, not after 20 s like fence_ipmilan")
    void wrongPort() throws InterruptedException {
        long start = System.nanoTime();
        FenceOutcome outcome = run(config().set("ipport", Integer.toString(sim.port() + 1)).build(), FenceAction.OFF,
                Duration.ofSeconds(2));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(outcome.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(took).isBetween(Duration.ofMillis(1_900), Duration.ofMillis(2_500));
    }

    @Test
    @DisplayName("cipher suite 17: the agent and ipmitool -C 17 agree about the BMC simulator's power")
    void cipherSuite17() throws Exception {
        try (IpmiBmcSimulator simulator = IpmiBmcSimulator.start()) {
            SimulatedBmc bmc = simulator.add(BmcSpec.builder().user("admin", "suite17-secret").cipherSuites(17)
                    .build());
            AgentConfig config = provider.configure().set("ip", bmc.host()).set("ipport", Integer.toString(bmc.port()))
                    .set("username", "admin").secret("password", Secret.of("suite17-secret")).set("cipher", "17")
                    .build();
            assertThat(Ipmitool.powerStatus(bmc.host(), bmc.port(), "admin", "suite17-secret", 17)).isEqualTo("on");
            assertThat(run(config, FenceAction.OFF, Duration.ofSeconds(5)).status()).isEqualTo(FenceStatus.SUCCEEDED);
            assertThat(Ipmitool.powerStatus(bmc.host(), bmc.port(), "admin", "suite17-secret", 17)).isEqualTo("off");
            assertThat(bmc.activeSessions()).isZero();
        }
    }
}
