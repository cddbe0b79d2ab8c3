package dev.remedy.fence.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpdProcess;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.Secret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClusterLabs' {@code fence_apc_snmp} and remedy's {@code snmp} agent on one emulated APC rack PDU behind snmpd,
 * with two plugs, each outlet witnessed through the device's state file: what the peer reports is set against what
 * the outlets did. fence-agents 4.12 resolves the first plug's outlet once and sends every SET there, yet exits 0;
 * this test holds the README to that claim, and is to be changed with it when fence-agents is fixed.
 */
class FenceApcSnmpIT {

    @TempDir
    static Path work;

    private static SnmpdProcess pdu;

    @BeforeAll
    static void start() {
        PeerPrograms.require("fence_apc_snmp", "fence-agents");
        pdu = SnmpdProcess.start(work.resolve("pdu"), SnmpDeviceSpec.of("pdu-peer", SnmpDeviceKind.APC_RACK_PDU, 6));
    }

    @AfterAll
    static void stop() {
        if (pdu != null) {
            pdu.close();
        }
    }

    @BeforeEach
    void allOn() {
        for (int n = 1; n <= 6; n++) {
            pdu.outlet(n).power(PowerState.ON);
            pdu.outlet(n).clearHistory();
        }
    }

    @Test
    @DisplayName("plugs 2 and 5 OFF: fence_apc_snmp reports success with outlet 5 still on; remedy turns both off")
    void twoPlugs() throws InterruptedException {
        String options = String.join("\n", "action=off", "ip=" + pdu.host(), "ipport=" + pdu.port(),
                "community=" + pdu.community(), "snmp_version=2c", "plug=2,5", "");
        PeerCommand.Result peer = new PeerCommand(List.of("fence_apc_snmp"), pdu.clientEnvironment(), options,
                Duration.ofSeconds(60)).run();
        PowerState peerSecond = pdu.outlet(5).power();
        boolean peerClaimed = peer.exitCode() == 0;
        boolean peerBoth = pdu.outlet(2).power() == PowerState.OFF && peerSecond == PowerState.OFF;
        allOn();

        FenceOutcome remedy;
        try (var agent = new SnmpFenceAgentProvider().create(new SnmpFenceAgentProvider().configure()
                .set("ip", pdu.host()).set("ipport", Integer.toString(pdu.port()))
                .secret("community", Secret.of(pdu.community())).set("profile", "apc").set("plug", "2,5")
                .set("poll_interval", "100ms").build())) {
            remedy = agent.execute(new FenceRequest(FenceAction.OFF, "it"), FenceContext.start(TimeSource.system(),
                    Duration.ofSeconds(30)));
        }

        assertThat(peerClaimed && !peerBoth).as("fence_apc_snmp's known fault: success (exit %d) while outlet 5 "
                + "reads %s; its output: %s", peer.exitCode(), peerSecond, peer.output()).isTrue();
        assertThat(remedy.status()).as("%s", remedy).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(pdu.outlet(2).power()).isEqualTo(PowerState.OFF);
        assertThat(pdu.outlet(5).power()).isEqualTo(PowerState.OFF);
    }
}
