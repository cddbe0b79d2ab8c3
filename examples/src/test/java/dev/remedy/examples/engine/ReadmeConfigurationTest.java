package dev.remedy.examples.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.topology.FenceConfiguration;
import dev.remedy.core.topology.FenceConfigurationLoader;
import dev.remedy.core.topology.SecretRef;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The fence configuration shown in the README is valid and means what the README says. */
class ReadmeConfigurationTest {

    @Test
    @DisplayName("the README's fence configuration loads: level 1 is the BMC, level 2 the PDU")
    void readmeConfigurationLoads() throws IOException {
        String yaml = fixture();
        FenceConfiguration config = new FenceConfigurationLoader().parse(yaml, "readme-fence.yaml",
                FenceAgentRegistry.load());
        SecretResolver secrets = SecretResolver.of(Map.of(SecretRef.env("BMC_PASSWORD"), Secret.of("bmc-password-1"),
                SecretRef.file("/run/secrets/pdu"), Secret.of("pdu-password-1")));
        List<List<ResolvedMethod>> levels = config.planFor("worker-1", Map.of(), secrets).orElseThrow()
                .step(FenceStep.POWER_MANAGEMENT).levels();
        assertThat(levels).extracting(level -> level.get(0).name()).containsExactly("bmc", "pdu");
        assertThat(levels.get(0).get(0).config().text("plug")).contains("worker-1-bmc");
    }

    @Test
    @DisplayName("the README shows exactly this configuration")
    void readmeShowsIt() throws IOException {
        Path readme = Path.of("..", "README.md");
        assertThat(Files.readString(readme, StandardCharsets.UTF_8)).contains(fixture());
    }

    @Test
    @DisplayName("the README's policy loads, and the README shows exactly it")
    void readmePolicyLoads() throws IOException {
        String yaml = fixture("/readme-policies.yaml");
        List<Policy> policies = new PolicyLoader().parse(yaml, "readme-policies.yaml").policies();
        assertThat(policies).singleElement().satisfies(p -> {
            assertThat(p.escalation()).extracting(Remedy::name).containsExactly("fence", "reboot");
            assertThat(p.storm().failureDomainLabel()).contains("rack");
        });
        assertThat(Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8)).contains(yaml);
    }

    private static String fixture() throws IOException {
        return fixture("/readme-fence.yaml");
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = ReadmeConfigurationTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
