package dev.remedy.fence.clusterlabs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider describes a ClusterLabs agent from its metadata, and refuses what it cannot describe. */
@DisplayName("the fence-agents provider")
class ClusterLabsProviderTest {

    @TempDir
    Path agents;

    private FakeAgent fake;
    private ClusterLabsFenceAgentProvider provider;

    @BeforeEach
    void install() {
        fake = FakeAgent.install(agents, "fence_fake");
        provider = new ClusterLabsFenceAgentProvider(agents);
    }

    private ParameterDescriptor parameter(ClusterLabsFenceAgentProvider specialised, String name) {
        return specialised.parameters().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("not specialised, it has the one required parameter agent and says what to give")
    void generic() {
        assertThat(provider.parameters()).extracting(ParameterDescriptor::name).containsExactly("agent");
        assertThat(provider.parameters().get(0).required()).isTrue();
        assertThat(provider.description()).contains("agent=fence_NAME", agents.toAbsolutePath().toString());
        assertThat(provider.specialise(Map.of())).isSameAs(provider);
        assertThat(FenceAgentRegistry.load(getClass().getClassLoader()).provider("fence-agents"))
                .isInstanceOf(ClusterLabsFenceAgentProvider.class);
    }

    @Test
    @DisplayName("specialised, its parameters are the agent's: types, defaults, choices, required ones, secrets,"
            + " fence-agents names; without action, deprecated names, scripts and options of no use to remedy")
    void parametersFromMetadata() {
        ClusterLabsFenceAgentProvider specialised = provider.specialise(Map.of("agent", "fence_fake"));

        assertThat(specialised.type()).isEqualTo("fence-agents");
        assertThat(specialised.description()).contains("fence_fake", "Fake agent for remedy's tests");
        assertThat(specialised.parameters()).extracting(ParameterDescriptor::name).containsExactly("agent", "ip",
                "ipport", "lanplus", "ssl", "method", "username", "password", "community", "api_key", "identity_file",
                "plug", "power_timeout", "tenantid");
        assertThat(parameter(specialised, "ip")).satisfies(p -> {
            assertThat(p.required()).isTrue();
            assertThat(p.type()).isEqualTo(ParameterType.STRING);
            assertThat(p.fenceAgentsName()).contains("ip");
            assertThat(p.description()).isEqualTo("IP address or hostname of fencing device");
        });
        assertThat(parameter(specialised, "ipport")).satisfies(p -> {
            assertThat(p.type()).isEqualTo(ParameterType.INTEGER);
            assertThat(p.defaultValue()).contains("623");
        });
        assertThat(parameter(specialised, "power_timeout").type()).isEqualTo(ParameterType.INTEGER);
        assertThat(parameter(specialised, "lanplus")).satisfies(p -> {
            assertThat(p.type()).isEqualTo(ParameterType.BOOLEAN);
            assertThat(p.defaultValue()).contains("0");
        });
        assertThat(parameter(specialised, "method")).satisfies(p -> {
            assertThat(p.type()).isEqualTo(ParameterType.CHOICE);
            assertThat(p.allowedValues()).containsExactly("onoff", "cycle");
            assertThat(p.defaultValue()).contains("onoff");
        });
        assertThat(parameter(specialised, "password")).satisfies(p -> {
            assertThat(p.secret()).isTrue();
            assertThat(p.defaultValue()).as("a secret has no default").isEmpty();
        });
        assertThat(parameter(specialised, "community").secret()).isTrue();
        assertThat(parameter(specialised, "api_key")).satisfies(p -> {
            assertThat(p.secret()).isTrue();
            assertThat(p.fenceAgentsName()).contains("api-key");
            assertThat(p.description()).isNotBlank();
        });
        assertThat(parameter(specialised, "identity_file").secret()).as("a path, not a secret").isFalse();
        assertThat(parameter(specialised, "tenantid")).satisfies(p -> {
            assertThat(p.fenceAgentsName()).contains("tenantId");
            assertThat(p.defaultValue()).as("an empty default is none").isEmpty();
        });
        assertThat(specialised.supportedActions()).isEqualTo(EnumSet.allOf(FenceAction.class));
        assertThat(specialised.fencingKind()).isEqualTo(FencingKind.POWER);
    }

    @Test
    @DisplayName("the metadata is read once per agent, however often the provider is specialised or creates agents")
    void metadataReadOnce() {
        ClusterLabsFenceAgentProvider specialised = provider.specialise(Map.of("agent", "fence_fake"));
        provider.specialise(Map.of("agent", "fence_fake", "ip", "10.0.0.1"));
        specialised.specialise(Map.of("agent", "fence_fake"));
        specialised.create(specialised.configure().set("agent", "fence_fake").set("ip", "10.0.0.1")
                .set("username", "admin").build()).close();

        assertThat(fake.actions()).containsExactly("metadata");
        assertThat(fake.runs().get(0).cmdline()).as("its command line").doesNotContain("metadata");
    }

    @Test
    @DisplayName("an agent name that is not fence_[a-z0-9_]+, or not installed, is a problem at agent")
    void unknownAgents() {
        assertThat(problems(Map.of("agent", "ipmilan"))).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("agent");
            assertThat(p.message()).contains("'ipmilan' is not the name of a ClusterLabs agent", "fence_ipmilan");
        });
        assertThat(problems(Map.of("agent", "fence_../fence_fake"))).singleElement()
                .extracting(ConfigProblem::path).isEqualTo("agent");
        assertThat(problems(Map.of("agent", "fence_fak"))).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("agent");
            assertThat(p.message()).contains("'fence_fak' is not installed", "did you mean 'fence_fake'?",
                    "fence-agents");
        });
    }

    @Test
    @DisplayName("metadata that fails, is not XML, or has a document type with an external entity is a problem at"
            + " agent, and is not remembered")
    void badMetadata() {
        FakeAgent failing = FakeAgent.install(agents, "fence_failing").control("metadata.exit=1");
        FakeAgent garbage = FakeAgent.install(agents, "fence_garbage").control("metadata.garbage=1");
        FakeAgent entity = FakeAgent.install(agents, "fence_entity").control("metadata.doctype=1");

        assertThat(problems(Map.of("agent", failing.name()))).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("agent");
            assertThat(p.message()).contains("fence_failing failed to print its metadata (exit code 1)",
                    "told to exit with 1");
        });
        assertThat(problems(Map.of("agent", garbage.name()))).singleElement().satisfies(p -> assertThat(p.message())
                .contains("the metadata fence_garbage printed is not well-formed XML"));
        assertThat(problems(Map.of("agent", entity.name()))).singleElement().satisfies(p -> assertThat(p.message())
                .contains("the metadata fence_entity printed is not well-formed XML without a document type")
                .doesNotContain("root:"));
        problems(Map.of("agent", failing.name()));
        assertThat(failing.actions()).as("a failure is not cached").containsExactly("metadata", "metadata");
    }

    @Test
    @DisplayName("a *_script option is refused where it is given: it would run a command")
    void scriptsRefused() {
        assertThat(problems(Map.of("agent", "fence_fake", "password_script", "cat /etc/secret")))
                .singleElement().satisfies(p -> {
                    assertThat(p.path()).isEqualTo("password_script");
                    assertThat(p.message()).contains("runs a command").doesNotContain("/etc/secret");
                });
        ClusterLabsFenceAgentProvider specialised = provider.specialise(Map.of("agent", "fence_fake"));
        InvalidConfigurationException refused = catchThrowableOfType(InvalidConfigurationException.class,
                () -> specialised.create(specialised.configure().set("agent", "fence_fake").set("ip", "h")
                        .set("username", "u").set("password_script", "cat /etc/secret").build()));
        assertThat(refused.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("password_script");
            assertThat(p.message()).contains("runs a command");
        });
    }

    @Test
    @DisplayName("a value with a line break is refused at its parameter, a secret one without its value")
    void lineBreaksRefused() {
        ClusterLabsFenceAgentProvider specialised = provider.specialise(Map.of("agent", "fence_fake"));
        InvalidConfigurationException refused = catchThrowableOfType(InvalidConfigurationException.class,
                () -> specialised.create(specialised.configure().set("agent", "fence_fake").set("ip", "h\nlanplus=1")
                        .set("username", "u").secret("password", Secret.of("pw-line\npassword_script=x")).build()));
        assertThat(refused.problems()).extracting(ConfigProblem::path).containsExactly("ip", "password");
        assertThat(refused.getMessage()).contains("'h\\nlanplus=1' holds a line break").doesNotContain("pw-line");
    }

    @Test
    @DisplayName("a configuration of the generic provider is read again with its agent's parameters")
    void genericConfiguration() {
        InvalidConfigurationException refused = catchThrowableOfType(InvalidConfigurationException.class,
                () -> provider.create(provider.configure().set("agent", "fence_fake").build()));
        assertThat(refused.problems()).extracting(ConfigProblem::path).containsExactly("ip", "username");
        assertThat(provider.validate(provider.configure().build())).extracting(ConfigProblem::path)
                .containsExactly("agent");
    }

    private List<ConfigProblem> problems(Map<String, String> values) {
        InvalidConfigurationException refused = catchThrowableOfType(InvalidConfigurationException.class,
                () -> provider.specialise(values));
        return Optional.ofNullable(refused).map(InvalidConfigurationException::problems).orElse(List.of());
    }
}
