package dev.remedy.fence.clusterlabs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpdProcess;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.Secret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What TESTING.md warns about, shown against the real peer: {@code fence_apc_snmp} given two plugs in one call
 * ({@code plug=1,2}, a node with two power supplies) resolves the outlet once, from the first plug, sends every SET
 * there, reads the first outlet's status for both, and reports success while the second outlet stays on. Each
 * outlet is witnessed on its own, through the emulator's state and through snmpget. This documents the behaviour
 * that issue 18's {@code snmp} agent must beat (each outlet set and read back on its own; OFF only when every
 * outlet reads off); if a fence-agents release fixes it, this test fails and should be turned around.
 */
class FenceApcSnmpSeveralPlugsIT {

    private static final String RPDU_STATE = ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.";

    @TempDir
    static Path work;

    private static SnmpdProcess snmpd;
    private static ClusterLabsFenceAgentProvider provider;

    @BeforeAll
    static void start() {
        PeerPrograms.require("fence_apc_snmp", "fence-agents");
        snmpd = SnmpdProcess.start(work, SnmpDeviceSpec.of("dual-psu-pdu", SnmpDeviceKind.APC_RACK_PDU, 4));
        provider = new ClusterLabsFenceAgentProvider(Path.of(ClusterLabsFenceAgentProvider.DEFAULT_DIRECTORY))
                .specialise(Map.of("agent", "fence_apc_snmp"));
    }

    @AfterAll
    static void stop() {
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @Test
    @DisplayName("fence_apc_snmp OFF with plugs 1,2 reports success, yet only outlet 1 is off: outlet 2 stays on")
    void offWithTwoPlugsLeavesTheSecondOutletOn() throws InterruptedException {
        FenceAgent agent = provider.create(provider.configure().set("agent", "fence_apc_snmp")
                .set("ip", snmpd.host()).set("ipport", Integer.toString(snmpd.port())).set("plug", "1,2")
                .set("snmp_version", "2c").secret("community", Secret.of(snmpd.community())).build());
        FenceOutcome outcome;
        try (agent) {
            outcome = agent.execute(new FenceRequest(FenceAction.OFF, "several-plugs-it"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(30), message -> { }));
        }
        assertThat(outcome.status()).as("what fence_apc_snmp reported: %s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(snmpd.outlet(1).power()).as("outlet 1, read from the emulator").isEqualTo(PowerState.OFF);
        assertThat(snmpd.outlet(2).power()).as("outlet 2, read from the emulator").isEqualTo(PowerState.ON);
        assertThat(snmpd.outlet(2).history()).as("outlet 2 was never switched").isEmpty();
        String witnessed = snmpd.tool("snmpget", snmpd.v2c(), RPDU_STATE + 1, RPDU_STATE + 2).run().output();
        assertThat(witnessed.lines()).as("snmpget of both outlets' rPDUOutletStatusOutletState")
                .containsExactly(RPDU_STATE + "1 = INTEGER: 2", RPDU_STATE + "2 = INTEGER: 1");
    }
}
