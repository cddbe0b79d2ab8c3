package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy fence list against a Redfish service whose system names hold commas and quotes")
class ListQuotingTest {

    private static final String PASSWORD = "list-bmc-password";

    private RedfishSimulator bmc;
    private CliRunner cli;

    @BeforeEach
    void start() {
        bmc = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systems("node-1", "node-2", "node-3").build());
        bmc.system("node-1").name("rack 1, \"east\"");
        bmc.system("node-2").name("plain").powerTarget().power(PowerState.OFF);
        bmc.system("node-3").name("say \"hi\"");
        cli = new CliRunner().registry(FenceAgentRegistry.of(new RedfishFenceAgentProvider()))
                .variable("BMC_PASSWORD", PASSWORD);
    }

    @AfterEach
    void stop() {
        bmc.close();
    }

    @Test
    @DisplayName("a name with a comma or a quote is quoted as CSV does (quotes doubled); a plain one is not")
    void namesAreQuoted() {
        CliRunner.Result result = cli.run("fence", "redfish", "list", "-p", "ip=127.0.0.1", "-p", "ipport="
                + bmc.port(), "-p", "ssl=false", "-p", "username=admin", "--secret-env", "password=BMC_PASSWORD");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).as(result.toString()).contains("node-1,\"rack 1, \"\"east\"\"\",ON",
                "node-2,plain,OFF", "node-3,\"say \"\"hi\"\"\",ON");
    }
}
