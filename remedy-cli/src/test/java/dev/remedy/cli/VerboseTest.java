package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy fence --verbose: remedy's steps and requests, no JDK internals, no secret")
class VerboseTest {

    private static final String PASSWORD = "verbose-bmc-password";
    /** Names of JDK and library internals that have no place in what --verbose prints. */
    private static final List<String> INTERNALS = List.of("jdk.internal", "javax.net.ssl", "sun.security",
            "HttpClientImpl", "SSLHandshake", "Http1Exchange", "X509Certificate", "certificate", "com.sun.net.httpserver",
            "ServerImpl");

    private RedfishSimulator bmc;
    private CliRunner cli;

    @BeforeEach
    void start() {
        bmc = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD).systems("node-1").tls(true).build());
        cli = new CliRunner().registry(FenceAgentRegistry.of(new RedfishFenceAgentProvider()))
                .variable("BMC_PASSWORD", PASSWORD).logged();
    }

    @AfterEach
    void stop() {
        bmc.close();
    }

    private CliRunner.Result status(String... more) {
        List<String> args = new ArrayList<>(List.of("fence", "redfish", "status", "-p", "ip=127.0.0.1",
                "-p", "ipport=" + bmc.port(), "-p", "tls_fingerprint=" + bmc.certificate().sha256Fingerprint(), "-p",
                "username=admin", "--secret-env", "password=BMC_PASSWORD"));
        args.addAll(List.of(more));
        return cli.run(args.toArray(String[]::new));
    }

    @Test
    @DisplayName("a status over TLS: login, the reads and each request with its status, in a few lines")
    void statusOverTls() {
        CliRunner.Result result = status("--verbose");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).as(result.toString()).contains("Status: ON");
        assertThat(result.errLines()).as(result.toString())
                .anyMatch(line -> line.matches("remedy: debug: .*logging in .*"))
                .anyMatch(line -> line.matches("remedy: debug: .*reading .*/redfish/v1/Systems/node-1.*"))
                .anyMatch(line -> line.matches("remedy: debug: GET /redfish/v1/ -> 200 .*"))
                .anyMatch(line -> line.matches("remedy: debug: POST /redfish/v1/SessionService/Sessions -> 201 .*"))
                .anyMatch(line -> line.matches("remedy: debug: GET /redfish/v1/Systems/node-1 -> 200 .*"))
                .anyMatch(line -> line.matches("remedy: debug: DELETE /redfish/v1/SessionService/Sessions/\\S+ -> 20\\d .*"))
                .noneMatch(line -> INTERNALS.stream().anyMatch(line::contains))
                .hasSizeLessThan(40);
        assertThat(bmc.lastSessionToken()).as("the simulator's session token").isPresent();
        assertThat(result.printed()).as(result.toString()).doesNotContain(PASSWORD)
                .doesNotContain(bmc.lastSessionToken().orElseThrow());
    }

    @Test
    @DisplayName("a status with HTTP Basic: each request is logged, neither the password nor its Basic form")
    void statusWithBasicAuth() {
        String basic = Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));

        CliRunner.Result result = status("-p", "auth=basic", "--verbose");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.errLines()).as(result.toString())
                .anyMatch(line -> line.matches("remedy: debug: .*HTTP Basic.*"))
                .anyMatch(line -> line.matches("remedy: debug: GET /redfish/v1/Systems/node-1 -> 200 .*"))
                .noneMatch(line -> line.contains("SessionService"))
                .hasSizeLessThan(40);
        assertThat(result.printed()).as(result.toString()).doesNotContain(PASSWORD).doesNotContain("Authorization")
                .doesNotContain(basic.replace("=", ""));
    }

    @Test
    @DisplayName("without --verbose, a status prints no debug line")
    void quietWithoutVerbose() {
        CliRunner.Result result = status();

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.errLines()).as(result.toString()).noneMatch(line -> line.startsWith("remedy: debug:"));
    }
}
