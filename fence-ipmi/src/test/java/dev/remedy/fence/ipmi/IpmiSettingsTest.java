package dev.remedy.fence.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.fence.ipmi.internal.protocol.CipherSuite;
import dev.remedy.fence.ipmi.internal.protocol.Privilege;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IpmiSettingsTest {

    private final IpmiFenceAgentProvider provider = new IpmiFenceAgentProvider();

    private AgentConfig.Builder base() {
        return provider.configure().set("ip", "10.0.0.9").set("username", "admin")
                .secret("password", Secret.of("long-enough-password"));
    }

    @Test
    @DisplayName("defaults follow fence_ipmilan where it has them, and negotiate cipher 17 then 3")
    void defaults() {
        IpmiSettings settings = IpmiSettings.of(base().build());
        assertThat(settings.port()).isEqualTo(623);
        assertThat(settings.suites()).containsExactly(CipherSuite.SUITE_17, CipherSuite.SUITE_3);
        assertThat(settings.privilege()).isEqualTo(Privilege.ADMINISTRATOR);
        assertThat(settings.cycle()).isFalse();
        assertThat(settings.powerTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.powerWait()).isZero();
        assertThat(settings.bmcKey()).isEmpty();
        assertThat(settings.sessionReuse()).isFalse();
    }

    @Test
    @DisplayName("fence_ipmilan option names and values are understood")
    void fenceAgentsNames() {
        IpmiSettings settings = IpmiSettings.of(base().set("cipher", "3").set("privlvl", "operator")
                .set("method", "cycle").set("power_wait", "2").set("ipport", "6230")
                .secret("hexadecimal_kg", Secret.of("0123456789abcdef")).build());
        assertThat(settings.suites()).containsExactly(CipherSuite.SUITE_3);
        assertThat(settings.privilege()).isEqualTo(Privilege.OPERATOR);
        assertThat(settings.cycle()).isTrue();
        assertThat(settings.port()).isEqualTo(6230);
        assertThat(settings.bmcKey()).isPresent();
    }

    @Test
    @DisplayName("every IPMI-specific problem is reported at once, with a hint and no secret")
    void problems() {
        InvalidConfigurationException refused = catchThrowableOfType(() -> IpmiSettings.of(provider.configure()
                .set("ip", "10.0.0.9").set("username", "a-user-name-longer-than-16")
                .secret("password", Secret.of("a-password-that-is-too-long-for-ipmi"))
                .set("lanplus", "false").set("cipher", "2").set("ipport", "70000")
                .secret("hexadecimal_kg", Secret.of("xyz-secret-kg")).set("poll_interval", "0s").build()),
                InvalidConfigurationException.class);
        assertThat(refused.problems()).extracting(ConfigProblem::path).containsExactlyInAnyOrder("lanplus",
                "ipport", "username", "password", "cipher", "hexadecimal_kg", "poll_interval");
        assertThat(refused.getMessage()).doesNotContain("a-password-that-is-too-long-for-ipmi")
                .doesNotContain("xyz-secret-kg").contains("use 17 (SHA-256) or 3 (SHA-1)");
    }

    @Test
    @DisplayName("cipher 0 is refused unless allow_insecure_cipher says otherwise")
    void insecureCipher() {
        InvalidConfigurationException refused = catchThrowableOfType(
                () -> IpmiSettings.of(base().set("cipher", "0").build()), InvalidConfigurationException.class);
        assertThat(refused.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("cipher");
            assertThat(problem.hint()).contains("allow_insecure_cipher");
        });
        assertThat(IpmiSettings.of(base().set("cipher", "0").set("allow_insecure_cipher", "true").build()).suites())
                .containsExactly(CipherSuite.SUITE_0);
    }

    @Test
    @DisplayName("the provider refuses a bad configuration in create, naming the agent type")
    void createRefuses() {
        InvalidConfigurationException refused = catchThrowableOfType(
                () -> provider.create(provider.configure().setAll(Map.of("ip", "10.0.0.9")).build()),
                InvalidConfigurationException.class);
        assertThat(refused.agentType()).isEqualTo("ipmi");
        assertThat(refused.problems()).extracting(ConfigProblem::path).contains("username", "password");
    }

    @Test
    @DisplayName("validate lists what create refuses: ipport 99999, cipher 0, a 25-character user, poll_interval 0s")
    void validateWithoutTransport() {
        IpmiFenceAgentProvider fresh = new IpmiFenceAgentProvider();
        AgentConfig bad = fresh.configure().set("ip", "10.0.0.9").set("username", "a-user-name-of-25-chars-x")
                .secret("password", Secret.of("pw")).set("ipport", "99999").set("cipher", "0")
                .set("poll_interval", "0s").build();

        assertThat(fresh.validate(bad)).extracting(ConfigProblem::path).containsExactlyInAnyOrder("ipport", "cipher",
                "username", "poll_interval");
        assertThat(fresh.validate(base().build())).isEmpty();
    }
}
