package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.spi.PowerState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The emulated devices as ClusterLabs' own SNMP agents see them through snmpd: each agent (written from the
 * vendors' MIBs by others) chooses its table from the sysObjectID, switches outlet or port 2 off and on again and
 * reads its status, and the emulator's state agrees, outlet by outlet. Options go to the agents on standard input,
 * as Pacemaker passes them.
 */
class SnmpFenceAgentsIT {

    @TempDir
    Path work;

    static Stream<Arguments> devices() {
        return Stream.of(
                Arguments.of(SnmpDeviceKind.APC_RACK_PDU, "fence_apc_snmp", "2"),
                Arguments.of(SnmpDeviceKind.APC_MASTER_SWITCH, "fence_apc_snmp", "2"),
                Arguments.of(SnmpDeviceKind.EATON_EPDU, "fence_eaton_snmp", "2"),
                Arguments.of(SnmpDeviceKind.IF_MIB_SWITCH, "fence_ifmib", "GigabitEthernet1/0/2"));
    }

    @ParameterizedTest(name = "{1} on {0}, plug {2}")
    @MethodSource("devices")
    @DisplayName("a ClusterLabs SNMP agent switches exactly outlet 2 off and on, and its status matches the emulator")
    void agentSwitchesTheOutlet(SnmpDeviceKind kind, String agent, String plug) throws InterruptedException {
        PeerPrograms.require(agent, "fence-agents");
        try (SnmpdProcess snmpd = SnmpdProcess.start(work, SnmpDeviceSpec.of("dev-1", kind, 4))) {
            PeerCommand.Result off = run(snmpd, agent, "off", plug);
            assertThat(off.exitCode()).as("%s off: %s", agent, off.output()).isZero();
            assertThat(snmpd.outlet(2).power()).isEqualTo(PowerState.OFF);
            assertThat(List.of(1, 3, 4)).allSatisfy(n -> assertThat(snmpd.outlet(n).power()).as("outlet %d", n)
                    .isEqualTo(PowerState.ON));
            assertThat(run(snmpd, agent, "status", plug).exitCode()).as("status of an off outlet").isEqualTo(2);
            PeerCommand.Result on = run(snmpd, agent, "on", plug);
            assertThat(on.exitCode()).as("%s on: %s", agent, on.output()).isZero();
            assertThat(snmpd.outlet(2).power()).isEqualTo(PowerState.ON);
            assertThat(run(snmpd, agent, "status", plug).exitCode()).as("status of an on outlet").isZero();
            assertThat(snmpd.outlet(2).history()).containsExactly(PowerState.OFF, PowerState.ON);
        }
    }

    private static PeerCommand.Result run(SnmpdProcess snmpd, String agent, String action, String plug)
            throws InterruptedException {
        String options = String.join("\n", "action=" + action, "ip=" + snmpd.host(), "ipport=" + snmpd.port(),
                "plug=" + plug, "snmp_version=2c", "community=" + snmpd.community(), "power_wait=0", "");
        return new PeerCommand(List.of(PeerPrograms.find(agent).orElseThrow().toString()), snmpd.clientEnvironment(),
                options, Duration.ofSeconds(60)).run();
    }
}
