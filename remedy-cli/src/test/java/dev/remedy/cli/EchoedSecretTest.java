package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy fence against a BMC that echoes the credentials it is sent")
class EchoedSecretTest {

    private static final String PASSWORD = "echoed-bmc-password";

    private RedfishSimulator bmc;
    private CliRunner cli;

    @BeforeEach
    void start() {
        bmc = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD).systems("node-1").build());
        bmc.faults().echoCredentials(true);
        cli = new CliRunner().registry(FenceAgentRegistry.of(new RedfishFenceAgentProvider()))
                .variable("BMC_PASSWORD", PASSWORD);
    }

    @AfterEach
    void stop() {
        bmc.close();
    }

    private CliRunner.Result status(String auth) {
        return cli.run("fence", "redfish", "status", "-p", "ip=127.0.0.1", "-p", "ipport=" + bmc.port(), "-p",
                "ssl=false", "-p", "username=admin", "-p", "auth=" + auth, "--secret-env", "password=BMC_PASSWORD");
    }

    @Test
    @DisplayName("the login body echoed in a 400 reply: the outcome names the error, never the password")
    void echoedLoginBody() {
        CliRunner.Result result = status("session");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.out()).as(result.toString()).contains("answered HTTP 400: body: ")
                .contains("\"Password\":\"" + Secret.MASK + "\"");
        assertThat(result.printed()).as(result.toString()).doesNotContain(PASSWORD);
    }

    @Test
    @DisplayName("the Basic Authorization header echoed in a 400 reply: neither the password nor its Basic form is printed")
    void echoedBasicHeader() {
        String basic = Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));

        CliRunner.Result result = status("basic");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.out()).as(result.toString()).contains("answered HTTP 400")
                .contains("Authorization: Basic " + Secret.MASK);
        assertThat(result.printed()).as(result.toString()).doesNotContain(PASSWORD)
                .doesNotContain(basic.replace("=", ""));
    }
}
