package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CiscoIosDialogueTest {

    private static final String EXEC = "remedy-sw1#";
    private static final String USER = "remedy-sw1>";
    private static final String OVERWRITE = "Overwrite the previous NVRAM configuration?[confirm]";
    private static final String CONFIG = "remedy-sw1(config)#";
    private static final String CONFIG_IF = "remedy-sw1(config-if)#";
    private static final String HEADER = "Port         Name               Status       Vlan       Duplex  Speed Type";
    private static final String GI5_CONNECTED =
            "Gi1/0/5      node-5             connected    10         a-full a-1000 10/100/1000BaseTX";
    private static final String INVALID = "% Invalid input detected at '^' marker.";

    @RegisterExtension
    static final TestSsh ssh = new TestSsh();

    private static SshDeviceSimulator ios(int ports) {
        return SshDeviceSimulator.start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).ports(ports).build());
    }

    @Test
    void showsAnInterfaceAndShutsItDownInConfigMode() throws IOException {
        try (SshDeviceSimulator sim = ios(8); TestTerminal t = ssh.shell(sim)) {
            assertThat(t.expect(EXEC)).isEqualTo(EXEC);
            assertThat(t.command("show interfaces GigabitEthernet1/0/5 status", EXEC))
                    .isEqualTo("\r\n" + HEADER + "\r\n" + GI5_CONNECTED + "\r\n" + EXEC);
            assertThat(t.command("configure terminal", CONFIG))
                    .isEqualTo("Enter configuration commands, one per line.  End with CNTL/Z.\r\n" + CONFIG);
            assertThat(t.command("interface GigabitEthernet1/0/5", CONFIG_IF)).isEqualTo(CONFIG_IF);
            assertThat(t.command("shutdown", CONFIG_IF)).isEqualTo(CONFIG_IF);
            assertThat(sim.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.OFF);
            assertThat(t.command("end", EXEC)).isEqualTo(EXEC);
            assertThat(t.command("show interfaces Gi1/0/5 status", EXEC)).contains(
                    "Gi1/0/5      node-5             disabled     10           auto   auto 10/100/1000BaseTX\r\n");
            t.command("configure terminal", CONFIG);
            t.command("interface GigabitEthernet1/0/5", CONFIG_IF);
            t.command("no shutdown", CONFIG_IF);
            assertThat(t.command("exit", CONFIG)).isEqualTo(CONFIG);
            assertThat(t.command("exit", EXEC)).isEqualTo(EXEC);
            assertThat(sim.device().port("GigabitEthernet1/0/5").history())
                    .containsExactly(PowerState.OFF, PowerState.ON);
            sim.device().link("GigabitEthernet1/0/5", false);
            assertThat(t.command("show interfaces GigabitEthernet1/0/5 status", EXEC)).contains(
                    "Gi1/0/5      node-5             notconnect   10           auto   auto 10/100/1000BaseTX\r\n");
            t.send("exit\r");
            assertThat(t.closedWithin(TestSsh.TIMEOUT)).isTrue();
        }
    }

    @Test
    void showsTheStatusWordATestSetsForAnEnabledInterface() throws IOException {
        try (SshDeviceSimulator sim = ios(8); TestTerminal t = ssh.shell(sim)) {
            t.expect(EXEC);
            sim.device().linkStatus("GigabitEthernet1/0/4", "sfpAbsent");
            assertThat(t.command("show interfaces Gi1/0/4 status", EXEC)).contains("node-4             sfpAbsent    10");
            sim.device().port("GigabitEthernet1/0/4").power(PowerState.OFF);
            assertThat(t.command("show interfaces Gi1/0/4 status", EXEC)).contains("node-4             disabled     10");
        }
    }

    @Test
    void aReloadKeepsOnlyWhatWriteMemorySaved() throws IOException {
        try (SshDeviceSimulator sim = ios(8); TestTerminal t = ssh.shell(sim)) {
            t.expect(EXEC);
            t.command("configure terminal", CONFIG);
            t.command("interface Gi1/0/2", CONFIG_IF);
            t.command("shutdown", CONFIG_IF);
            t.command("end", EXEC);
            assertThat(t.command("write memory", EXEC)).isEqualTo("Building configuration...\r\n[OK]\r\n" + EXEC);
            t.command("configure terminal", CONFIG);
            t.command("interface Gi1/0/3", CONFIG_IF);
            t.command("shutdown", CONFIG_IF);
            t.command("end", EXEC);

            sim.device().reload();

            assertThat(sim.device().port("GigabitEthernet1/0/2").power()).isEqualTo(PowerState.OFF);
            assertThat(sim.device().port("GigabitEthernet1/0/3").power()).isEqualTo(PowerState.ON);
        }
    }

    @Test
    void marksInvalidInputWithACaretUnderTheWordThatFitsNoCommand() throws IOException {
        try (SshDeviceSimulator sim = ios(8); TestTerminal t = ssh.shell(sim)) {
            t.expect(EXEC);
            assertThat(t.command("shwo interfaces status", EXEC))
                    .isEqualTo(" ".repeat(EXEC.length()) + "^\r\n" + INVALID + "\r\n" + EXEC);
            assertThat(t.command("show interfaces GigabitEthernet1/0/9 status", EXEC))
                    .isEqualTo(" ".repeat(EXEC.length() + 16) + "^\r\n" + INVALID + "\r\n" + EXEC);
            t.command("configure terminal", CONFIG);
            assertThat(t.command("interface GigabitEthernet1/0/99", CONFIG))
                    .isEqualTo(" ".repeat(CONFIG.length() + 10) + "^\r\n" + INVALID + "\r\n" + CONFIG);
            assertThat(t.command("shutdown", CONFIG))
                    .isEqualTo(" ".repeat(CONFIG.length()) + "^\r\n" + INVALID + "\r\n" + CONFIG);
            assertThat(t.command("end", EXEC)).isEqualTo(EXEC);
            assertThat(sim.device().port("GigabitEthernet1/0/1").history()).isEmpty();
        }
    }

    @Test
    void aSwitchWithAnEnableSecretLogsInAtUserExecAndEnablesOnlyWithTheSecret() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS)
                .enableSecret("en-secret").build()); TestTerminal t = ssh.shell(sim)) {
            assertThat(t.expect(USER)).isEqualTo(USER);
            assertThat(t.command("show interfaces Gi1/0/5 status", USER)).contains(GI5_CONNECTED);
            assertThat(t.command("configure terminal", USER)).contains(INVALID);
            assertThat(t.command("enable", "Password: ")).isEqualTo("Password: ");
            t.send("wrong\r");
            assertThat(t.expect("Password: ")).isEqualTo("\r\nPassword: ");
            t.send("wrong\r");
            t.expect("Password: ");
            t.send("\r");
            assertThat(t.expect(USER)).isEqualTo("\r\n% Bad secrets\r\n" + USER);
            t.command("enable", "Password: ");
            t.send("en-secret\r");
            assertThat(t.expect(EXEC)).as("the secret is not echoed").isEqualTo("\r\n" + EXEC);
            assertThat(t.command("configure terminal", CONFIG)).endsWith(CONFIG);
        }
    }

    @Test
    void withConfirmationsWriteMemorySavesOnlyOnABareEnter() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS)
                .confirmations(true).build()); TestTerminal t = ssh.shell(sim)) {
            t.expect(EXEC);
            t.command("configure terminal", CONFIG);
            t.command("interface Gi1/0/2", CONFIG_IF);
            t.command("shutdown", CONFIG_IF);
            t.command("end", EXEC);
            assertThat(t.command("write memory", "[confirm]")).isEqualTo(OVERWRITE);
            t.send("y\r");
            assertThat(t.expect(EXEC)).isEqualTo("y\r\n" + EXEC);
            sim.device().reload();
            assertThat(sim.device().port("GigabitEthernet1/0/2").power()).as("not saved").isEqualTo(PowerState.ON);

            t.command("configure terminal", CONFIG);
            t.command("interface Gi1/0/2", CONFIG_IF);
            t.command("shutdown", CONFIG_IF);
            t.command("end", EXEC);
            t.command("write memory", "[confirm]");
            t.send("\r");
            assertThat(t.expect(EXEC)).isEqualTo("\r\nBuilding configuration...\r\n[OK]\r\n" + EXEC);
            sim.device().reload();
            assertThat(sim.device().port("GigabitEthernet1/0/2").power()).isEqualTo(PowerState.OFF);
        }
    }

    @Test
    void pagesEvery24LinesUntilTerminalLength0() throws IOException {
        try (SshDeviceSimulator sim = ios(30); TestTerminal t = ssh.shell(sim)) {
            t.expect(EXEC);
            String more = " --More-- ";
            t.send("show interfaces status\r");
            String first = t.expect(more);
            assertThat(first).startsWith("show interfaces status\r\n\r\n" + HEADER + "\r\n")
                    .contains("Gi1/0/22 ").doesNotContain("Gi1/0/23 ");
            assertThat(first.split("\r\n")).hasSize(1 + 24 + 1);
            t.send(" ");
            String rest = t.expect(EXEC);
            assertThat(rest).startsWith("\r" + " ".repeat(more.length()) + "\r").contains("Gi1/0/23 ", "Gi1/0/30 ");
            t.send("show interfaces status\r");
            t.expect(more);
            t.send("q");
            assertThat(t.expect(EXEC)).isEqualTo("\r" + " ".repeat(more.length()) + "\r" + EXEC);
            assertThat(t.command("terminal length 0", EXEC)).isEqualTo(EXEC);
            String all = t.command("show interfaces status", EXEC);
            assertThat(all).doesNotContain("--More--").contains("Gi1/0/30 ");
        }
    }
}
