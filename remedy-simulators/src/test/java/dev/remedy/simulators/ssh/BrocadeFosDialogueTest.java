package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BrocadeFosDialogueTest {

    private static final String PROMPT = "remedy-fc1:admin> ";

    @RegisterExtension
    static final TestSsh ssh = new TestSsh();

    @Test
    void showsPortFlagsAndDisablesAndEnablesPorts() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder()
                .device(DeviceKind.BROCADE_FOS).portNames(Map.of("7", "storage-7")).build());
                TestTerminal t = ssh.shell(sim)) {
            assertThat(t.expect(PROMPT)).isEqualTo(PROMPT);
            assertThat(t.command("portshow 3", PROMPT)).isEqualTo("portIndex:   3\r\n"
                    + "portName: node-3\r\n"
                    + "portHealth: HEALTHY\r\n"
                    + "\r\n"
                    + "Authentication: None\r\n"
                    + "portDisableReason: None\r\n"
                    + "portCFlags: 0x1\r\n"
                    + "portFlags: 0x24b03       PRESENT ACTIVE F_PORT G_PORT U_PORT LOGICAL_ONLINE LOGIN NOELP LED "
                    + "ACCEPT FLOGI\r\n"
                    + "portState: 1    Online\r\n" + PROMPT);
            assertThat(t.command("portdisable 3", PROMPT)).isEqualTo(PROMPT);
            assertThat(sim.device().port("3").power()).isEqualTo(PowerState.OFF);
            String disabled = t.command("portshow 3", PROMPT);
            assertThat(disabled).contains("portDisableReason: User Disabled\r\n",
                    "portFlags: 0x4001       PRESENT U_PORT DISABLED LED\r\n", "portState: 2    Offline\r\n");
            assertThat(t.command("portenable 3", PROMPT)).isEqualTo(PROMPT);
            assertThat(sim.device().port("3").history()).containsExactly(PowerState.OFF, PowerState.ON);
            assertThat(t.command("portshow 0", PROMPT)).contains("portIndex:   0\r\nportName: node-0\r\n");
            assertThat(t.command("portShow 7", PROMPT)).contains("portName: storage-7\r\n");
        }
    }

    @Test
    void aReloadUndoesPortdisableButKeepsPersistentDisable() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder()
                .device(DeviceKind.BROCADE_FOS).build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect(PROMPT);
            assertThat(t.command("portdisable 2", PROMPT)).isEqualTo(PROMPT);
            assertThat(t.command("portcfgpersistentdisable 3", PROMPT)).isEqualTo(PROMPT);
            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.OFF);
            assertThat(sim.device().port("3").power()).isEqualTo(PowerState.OFF);

            sim.device().reload();

            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.ON);
            assertThat(sim.device().port("3").power()).isEqualTo(PowerState.OFF);
            assertThat(t.command("portcfgpersistentenable 3", PROMPT)).isEqualTo(PROMPT);
            sim.device().reload();
            assertThat(sim.device().port("3").power()).isEqualTo(PowerState.ON);
        }
    }

    @Test
    void aDirectorInAVirtualFabricShowsItsFidAndTakesSlotPorts() throws IOException {
        String prompt = "remedy-fc1:FID128:admin> ";
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS)
                .ports(32).portsPerSlot(16).virtualFabric(128).build());
                TestTerminal t = ssh.shell(sim)) {
            assertThat(t.expect(prompt)).isEqualTo(prompt);
            assertThat(sim.device().plugs()).hasSize(32).startsWith("1/0", "1/1").endsWith("2/15");
            assertThat(t.command("portdisable 2/5", prompt)).isEqualTo(prompt);
            assertThat(sim.device().port("2/5").power()).isEqualTo(PowerState.OFF);
            assertThat(t.command("portshow 5", prompt)).isEqualTo("Invalid port number: 5\r\n" + prompt);
        }
    }

    @Test
    void refusesBadPortsAndUnknownCommands() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder()
                .device(DeviceKind.BROCADE_FOS).build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect(PROMPT);
            assertThat(t.command("portshow 8", PROMPT)).isEqualTo("Invalid port number: 8\r\n" + PROMPT);
            assertThat(t.command("portdisable x", PROMPT)).isEqualTo("Invalid port number: x\r\n" + PROMPT);
            assertThat(t.command("switchshow", PROMPT)).isEqualTo("rbash: switchshow: command not found\r\n"
                    + PROMPT);
            t.send("exit\r");
            assertThat(t.closedWithin(TestSsh.TIMEOUT)).isTrue();
            assertThat(sim.device().port("0").history()).isEmpty();
        }
    }
}
