package dev.remedy.fence.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.fence.redfish.internal.client.AuthMode;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RedfishSettingsTest {

    private final RedfishFenceAgentProvider provider = new RedfishFenceAgentProvider();

    private AgentConfig.Builder base() {
        return provider.configure().set("ip", "bmc-7.example").set("username", "fencer")
                .secret("password", Secret.of("redfish-password"));
    }

    @Test
    @DisplayName("defaults: HTTPS on 443 with the JVM's trust, sessions, ForceOff without a graceful try")
    void defaults() {
        RedfishSettings settings = RedfishSettings.of(base().build());
        assertThat(settings.base()).isEqualTo(URI.create("https://bmc-7.example:443"));
        assertThat(settings.trust()).isEqualTo("system");
        assertThat(settings.auth()).isEqualTo(AuthMode.SESSION);
        assertThat(settings.gracefulOffTimeout()).isZero();
        assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.plug()).isEmpty();
        assertThat(settings.maxResponseSize()).isEqualTo(4L << 20);
    }

    @Test
    @DisplayName("fence_redfish names are understood; an IPv6 address gets brackets in the URI")
    void fenceAgentsNames() {
        RedfishSettings settings = RedfishSettings.of(base().set("ip", "fd00::7").set("ipport", "8443")
                .set("ssl_insecure", "true").set("systems_uri", "/redfish/v1/Systems/1").set("auth", "basic")
                .build());
        assertThat(settings.base()).isEqualTo(URI.create("https://[fd00::7]:8443"));
        assertThat(settings.trust()).isEqualTo("insecure");
        assertThat(settings.systemsUri()).contains("/redfish/v1/Systems/1");
        assertThat(settings.auth()).isEqualTo(AuthMode.BASIC);
    }

    @Test
    @DisplayName("every problem is reported at once: port, exclusive TLS options, missing CA file, bad paths")
    void problems() {
        InvalidConfigurationException refused = catchThrowableOfType(() -> RedfishSettings.of(base()
                .set("ip", "https://bmc-7/redfish").set("ipport", "0").set("ssl_insecure", "true")
                .set("tls_fingerprint", "abc").set("ca_file", "/no/such/ca.pem").set("systems_uri", "Systems/1")
                .set("poll_interval", "0s").set("max_response_size", "1000").build()),
                InvalidConfigurationException.class);
        assertThat(refused.problems()).extracting(ConfigProblem::path).containsExactlyInAnyOrder("ipport",
                "ssl_insecure", "ca_file", "tls_fingerprint", "systems_uri", "poll_interval", "ip",
                "max_response_size");
        assertThat(refused.getMessage()).contains("max_response_size").contains("65536").contains("268435456");
        assertThat(refused.getMessage()).doesNotContain("redfish-password");
    }

    @Test
    @DisplayName("ca_file and tls_fingerprint together: one problem that names exactly those two options")
    void caFileAndPin(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path ca = java.nio.file.Files.writeString(dir.resolve("ca.pem"), "");
        List<ConfigProblem> problems = provider.validate(base().set("ca_file", ca.toString())
                .set("tls_fingerprint", "AB".repeat(32)).build());
        assertThat(problems).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("tls_fingerprint");
            assertThat(problem.message()).contains("ca_file").contains("tls_fingerprint")
                    .doesNotContain("ssl_insecure");
        });
    }
}
