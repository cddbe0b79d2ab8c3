package dev.remedy.config.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.profiles.FakeFormat.Fake;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("ProfileParameters")
class ProfileParametersTest {

    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("profile", ParameterType.STRING).build(),
            ParameterDescriptor.builder("profile_file", ParameterType.STRING).build());

    @TempDir
    Path dir;

    private final List<ConfigProblem> problems = new ArrayList<>();

    private static ProfileParameters<Fake> parameters(boolean listsByKind) {
        return new ProfileParameters<>(FakeFormat.SHIPPED, "fake profile", k -> k.name().toLowerCase(Locale.ROOT),
                k -> "fake-" + k.name().toLowerCase(Locale.ROOT), listsByKind);
    }

    private static AgentConfig config(String profile, String file) {
        AgentConfig.Builder builder = AgentConfig.builder("fake", PARAMETERS).set("profile", profile);
        return (file == null ? builder : builder.set("profile_file", file)).build();
    }

    private List<String> texts() {
        return problems.stream().map(p -> p.path() + ": " + p.message()).toList();
    }

    @Test
    @DisplayName("resolves a built-in profile of the agent's kind, or one of profile_file")
    void resolves() throws IOException {
        Path file = Files.writeString(dir.resolve("mine.yaml"), "profiles:\n  - {name: mine, kind: fabric}\n");

        assertThat(parameters(true).resolve(config("pdu2", null), FencingKind.POWER, problems)).map(Fake::name)
                .hasValue("pdu2");
        assertThat(parameters(true).resolve(config("mine", file.toString()), FencingKind.FABRIC, problems))
                .map(Fake::name).hasValue("mine");
        assertThat(problems).isEmpty();
    }

    @Test
    @DisplayName("an unknown name lists the profiles (of the agent's kind, if so made) with a did-you-mean")
    void unknown() {
        assertThat(parameters(true).resolve(config("pdu22", null), FencingKind.POWER, problems)).isEmpty();
        assertThat(parameters(false).resolve(config("pdu22", null), FencingKind.POWER, problems)).isEmpty();

        assertThat(texts()).containsExactly(
                "profile: 'pdu22' is not a known fake profile; did you mean 'pdu2'? the power profiles are [pdu, "
                        + "pdu2]; define your own in profile_file",
                "profile: 'pdu22' is not a known fake profile; did you mean 'pdu2'? the profiles are [pdu, pdu2, "
                        + "switch]; define your own in profile_file");
    }

    @Test
    @DisplayName("a profile of another kind names the agent type for it; a bad profile_file is each of its problems")
    void refused() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "profiles:\n  - {name: Bad, kind: power}\n");

        assertThat(parameters(true).resolve(config("switch", null), FencingKind.POWER, problems)).isEmpty();
        assertThat(parameters(true).resolve(config("pdu", bad.toString()), FencingKind.POWER, problems)).isEmpty();

        assertThat(texts()).containsExactly("profile: 'switch' is fabric, not power; use the agent type fake-fabric "
                + "for it", "profile_file: " + bad + ":profiles[0].name: 'Bad' is not a profile name; use lower-case "
                + "letters, digits, '.', '_', '-'; fix " + bad);
    }

    @Test
    @DisplayName("quietly: empty when no profile is given or anything is wrong, without reporting")
    void quietly() {
        ProfileParameters<Fake> parameters = parameters(true);
        AgentConfig none = AgentConfig.builder("fake", PARAMETERS).build();

        assertThat(ProfileParameters.quietly(none, p -> Optional.of("never asked"))).isEmpty();
        assertThat(ProfileParameters.quietly(config("switch", null),
                p -> parameters.resolve(config("switch", null), FencingKind.POWER, p))).isEmpty();
        assertThat(ProfileParameters.quietly(config("pdu", null),
                p -> parameters.resolve(config("pdu", null), FencingKind.POWER, p))).map(Fake::name).hasValue("pdu");
    }
}
