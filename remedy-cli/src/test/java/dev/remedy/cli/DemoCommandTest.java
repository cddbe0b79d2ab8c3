package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.fence.redfish.RedfishPduAgentProvider;
import dev.remedy.fence.snmp.SnmpFenceAgentProvider;
import dev.remedy.fence.ssh.SshFabricAgentProvider;
import dev.remedy.fence.ssh.SshFenceAgentProvider;
import dev.remedy.fence.ssh.SshHostAgentProvider;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy demo")
class DemoCommandTest {

    @Test
    @DisplayName("runs every step on the environment's clock, each ending as expected, and exits 0")
    void everyStepAsExpected() {
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider();
        CliRunner cli = new CliRunner().registry(FenceAgentRegistry.of(fake,
                new IpmiFenceAgentProvider(), new RedfishFenceAgentProvider(), new RedfishPduAgentProvider(),
                new SshFenceAgentProvider(), new SshFabricAgentProvider(), new SshHostAgentProvider(),
                new SnmpFenceAgentProvider()));

        CliRunner.Result result = cli.run("demo");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("== remedy demo")
                .contains("   fake: ")
                .contains("Status: ON", "OFF succeeded", "Status: OFF", "ON succeeded", "OFF timed out")
                .doesNotContain("UNEXPECTED")
                .doesNotContain("demo-bmc-password");
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("   exit code ")).containsExactly(
                "   exit code 0 (as expected)", "   exit code 0 (as expected)", "   exit code 2 (as expected)",
                "   exit code 0 (as expected)", "   exit code 4 (as expected)", "   exit code 2 (as expected)",
                "   exit code 4 (as expected)", "   exit code 6 (as expected)", "   exit code 0 (as expected)",
                "   exit code 4 (as expected)", "   exit code 0 (as expected)", "   exit code 0 (as expected)",
                "   exit code 6 (as expected)", "   exit code 0 (as expected)", "   exit code 0 (as expected)",
                "   exit code 0 (as expected)", "   exit code 0 (as expected)", "   exit code 0 (as expected)",
                "   exit code 1 (as expected)", "   exit code 0 (as expected)");
        assertThat(result.out()).contains("50 of 50 OFF confirmed").contains("sessions left open: 0")
                .doesNotContain("demo-ipmi-secret");
        assertThat(result.out()).contains("node-1, node-2, node-3")
                .contains("reset requests node-2 received: [GracefulShutdown, ForceOff]")
                .contains("Redfish sessions left open on the BMC: 0").doesNotContain("demo-redfish-secret");
        assertThat(result.out()).contains("outlets 3 and 4 read OFF on the PDU: true").contains("has CHANGED")
                .contains("reboots the host saw: 1").doesNotContain("demo-ssh-secret");
        assertThat(result.out()).as("the dual-PSU node on the SNMP PDU")
                .contains("   on the PDU: outlet 1 ON, outlet 2 ON, outlet 3 OFF, outlet 4 OFF, outlet 5 ON,")
                .contains("plug 4 reads ON, not OFF after power_timeout (1000 ms)")
                .doesNotContain("demo-snmp-auth-secret").doesNotContain("demo-snmp-priv-secret");
        assertThat(result.outLines().stream().dropWhile(l -> !l.startsWith("-- 11d.")).toList())
                .as("STATUS after the stuck relay, outlet by outlet").containsSubsequence("Status: ON", "3,,OFF",
                        "4,,ON");
        assertThat(result.out()).contains("-- 12. Kubernetes: remedy as an operator")
                .contains("worker-1 uncordoned, no remedy taint left: true");
        assertThat(result.outLines()).last().isEqualTo("== demo finished: every step ended as expected");
        assertThat(fake.lab().find("demo-node-1").orElseThrow().history())
                .containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(cli.time().elapsed()).as("the demo ran on the fake clock").isPositive();
    }

    @Test
    @DisplayName("without the fake agent it exits 3 with one line naming the missing type")
    void withoutFakeAgent() {
        CliRunner.Result result = new CliRunner().registry(FenceAgentRegistry.of()).run("demo");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).singleElement().asString().contains("unknown agent type 'fake'");
    }
}
