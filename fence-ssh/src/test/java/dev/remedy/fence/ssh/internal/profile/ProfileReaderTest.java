package dev.remedy.fence.ssh.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProfileReaderTest {

    private static final String RARITAN = resource("/profiles/raritan-px.yaml");

    private final ProfileReader reader = new ProfileReader();

    private static String resource(String name) {
        try (InputStream in = ProfileReaderTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("reads a profile with its prompt, plug form, confirmation, errors, status and commands")
    void readsProfile() {
        DeviceProfile profile = reader.read(RARITAN, "raritan.yaml").get(0);

        assertThat(profile.name()).isEqualTo("raritan-px");
        assertThat(profile.description()).isEqualTo("Raritan PX PDU");
        assertThat(profile.kind()).isEqualTo(FencingKind.POWER);
        assertThat(profile.prompt().matcher("# ").matches()).isTrue();
        assertThat(profile.plug().orElseThrow().matcher("12").matches()).isTrue();
        assertThat(profile.plug().orElseThrow().matcher("1; reboot").matches()).isFalse();
        assertThat(profile.confirmations()).singleElement().satisfies(c -> {
            assertThat(c.pattern().matcher("Do you wish to turn outlet 3 off? [y/n] ").matches()).isTrue();
            assertThat(c.send()).isEqualTo("y");
            assertThat(c.line()).isTrue();
        });
        assertThat(profile.on()).containsExactly("power outlets {plug} on");
        assertThat(profile.off()).containsExactly("power outlets {plug} off");
        assertThat(profile.status().onPattern("3").matcher("Power state: On").find()).isTrue();
        assertThat(profile.exit()).isEqualTo("exit");
        assertThat(profile.pager()).isEmpty();
        assertThat(profile.reboot()).isEmpty();
    }

    @Test
    @DisplayName("isolationPersists is read for a fabric profile, false when absent, refused elsewhere or not boolean")
    void isolationPersists() {
        String fabric = """
                profiles:
                  - name: sw
                    kind: fabric
                    prompt: 'sw>'
                    plug: '[0-9]+'
                    status: {command: 'show {plug}', on: 'up', off: 'down'}
                    on: ['enable {plug}']
                    off: ['disable {plug}']
                    isolationPersists: %s
                """;

        assertThat(reader.read(fabric.formatted("true"), "sw.yaml").get(0).isolationPersists()).isTrue();
        assertThat(reader.read(fabric.formatted("false"), "sw.yaml").get(0).isolationPersists()).isFalse();
        assertThat(reader.read(RARITAN, "raritan.yaml").get(0).isolationPersists()).isFalse();
        assertThatThrownBy(() -> reader.read(fabric.formatted("'sometimes'"), "sw.yaml"))
                .hasMessageContaining("profiles[0].isolationPersists: 'sometimes' is not true or false");
        assertThatThrownBy(() -> reader.read(fabric.formatted("true").replace("fabric", "power"), "sw.yaml"))
                .hasMessageContaining("profiles[0].isolationPersists: is given for a power profile");
    }

    @Test
    @DisplayName("a confirmation may answer with a bare Enter (send: ''); a pager may not, and send stays required")
    void bareEnter() {
        String yaml = """
                profiles:
                  - name: sw
                    kind: fabric
                    prompt: 'sw#'
                    plug: '[0-9]+'
                    %s
                    status: {command: 'show {plug}', on: 'up', off: 'down'}
                    on: ['enable {plug}']
                    off: ['disable {plug}']
                """;

        DeviceProfile profile = reader.read(yaml.formatted("confirm: [{pattern: '.*\\[confirm\\]', send: ''}]"),
                "sw.yaml").get(0);
        assertThat(profile.confirmations()).singleElement().satisfies(c -> {
            assertThat(c.send()).isEmpty();
            assertThat(c.line()).isTrue();
            assertThat(c.pattern().matcher("Proceed? [confirm]").matches()).isTrue();
        });
        assertThatThrownBy(() -> reader.read(yaml.formatted("pager: {pattern: 'More', send: ''}"), "sw.yaml"))
                .hasMessageContaining("profiles[0].pager.send: is missing").hasMessageContaining("the next page");
        assertThatThrownBy(() -> reader.read(yaml.formatted("confirm: [{pattern: 'y/n'}]"), "sw.yaml"))
                .hasMessageContaining("profiles[0].confirm[0].send: is missing")
                .hasMessageContaining("'' for a bare Enter");
    }

    @Test
    @DisplayName("an enable section gives the command, the password prompt and the privileged prompt, all required")
    void enable() {
        String yaml = """
                profiles:
                  - name: sw
                    kind: fabric
                    prompt: 'sw[>#]'
                    plug: '[0-9]+'
                    enable: %s
                    status: {command: 'show {plug}', on: 'up', off: 'down'}
                    on: ['enable {plug}']
                    off: ['disable {plug}']
                """;

        DeviceProfile profile = reader.read(yaml.formatted("{command: enable, passwordPrompt: 'Password: ?', "
                + "prompt: 'sw#'}"), "sw.yaml").get(0);
        assertThat(profile.enable()).hasValueSatisfying(enable -> {
            assertThat(enable.command()).isEqualTo("enable");
            assertThat(enable.passwordPrompt().matcher("Password: ").matches()).isTrue();
            assertThat(enable.prompt().matcher("sw#").matches()).isTrue();
            assertThat(enable.prompt().matcher("sw>").matches()).isFalse();
        });
        assertThat(reader.read(RARITAN, "raritan.yaml").get(0).enable()).isEmpty();
        assertThatThrownBy(() -> reader.read(yaml.formatted("{command: enable, prompt: '(sw#'}"), "sw.yaml"))
                .hasMessageContaining("profiles[0].enable.passwordPrompt: is missing")
                .hasMessageContaining("profiles[0].enable.prompt: is not a valid regular expression");
        assertThatThrownBy(() -> reader.read(yaml.formatted("enable"), "sw.yaml"))
                .hasMessageContaining("profiles[0].enable: is not a mapping");
    }

    @Test
    @DisplayName("kind self (a node that resets itself) is no device profile's kind: refused, naming the kinds")
    void selfIsNotADeviceKind() {
        String yaml = RARITAN.replace("    kind: power\n", "    kind: self\n");

        assertThatThrownBy(() -> reader.read(yaml, "mine.yaml")).isInstanceOfSatisfying(ProfileException.class, e ->
                assertThat(e.issues()).extracting(ConfigProblem::toString)
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].kind: ").contains("'self' is not a kind")
                                .contains("give power, fabric or soft")));
    }

    @Test
    @DisplayName("reports every problem of a file at once, each with the profile and field, never half a profile")
    void everyProblemAtOnce() {
        String yaml = """
                profiles:
                  - name: Bad Name
                    kind: plasma
                    prompt: '(unclosed'
                    status: {command: 'show', on: 'On'}
                    off: ['off']
                    colour: blue
                """;

        assertThatThrownBy(() -> reader.read(yaml, "mine.yaml")).isInstanceOfSatisfying(ProfileException.class, e -> {
            assertThat(e.getMessage()).startsWith("invalid device profiles (9 problems):");
            assertThat(e.issues()).extracting(ConfigProblem::toString)
                    .anySatisfy(p -> assertThat(p).contains("profiles[0].colour: ").contains("is not a profile field"))
                    .anySatisfy(p -> assertThat(p).contains("profiles[0].name: ")
                            .contains("'Bad Name' is not a profile name"))
                    .anySatisfy(p -> assertThat(p).contains("profiles[0].kind: ").contains("give power, fabric or soft"))
                    .anySatisfy(p -> assertThat(p).contains("profiles[0].prompt: ")
                            .contains("not a valid regular expression"))
                    .allSatisfy(p -> assertThat(p).startsWith("mine.yaml:profiles[0]."));
        });
    }

    @Test
    @DisplayName("a power profile needs both status patterns, on and off commands that name the plug, and a plug form")
    void powerProfileRules() {
        String yaml = """
                profiles:
                  - name: half
                    kind: power
                    prompt: '> '
                    status: {command: 'status', on: 'On'}
                    off: ['all off']
                """;

        assertThatThrownBy(() -> reader.read(yaml, "half.yaml")).isInstanceOfSatisfying(ProfileException.class, e ->
                assertThat(e.issues()).extracting(ConfigProblem::toString)
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].plug: ").contains("is missing"))
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].status.off: ").contains("is missing"))
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].status.command: ")
                                .contains("never names the plug"))
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].on: ").contains("is missing"))
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].off: ").contains("never names the plug")));
    }

    @Test
    @DisplayName("a soft profile has no plug, no on/off, and a reboot that disconnects needs a boot identity")
    void softProfileRules() {
        String yaml = """
                profiles:
                  - name: soft
                    kind: soft
                    prompt: '\\$ '
                    plug: '[0-9]+'
                    status: {command: 'uptime', on: ' up '}
                    on: ['start {plug}']
                    reboot: {commands: ['reboot -f'], disconnects: true}
                """;

        assertThatThrownBy(() -> reader.read(yaml, "soft.yaml")).isInstanceOfSatisfying(ProfileException.class, e ->
                assertThat(e.issues()).extracting(ConfigProblem::toString)
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].plug: ").contains("soft-fencing"))
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].on: ")
                                .contains("cannot confirm its own power state"))
                        .anySatisfy(p -> assertThat(p).contains("profiles[0].reboot.identity: ")
                                .contains("new boot id")));
    }

    @Test
    @DisplayName("invalid YAML and a file without a profiles list are refused with what to write")
    void notProfiles() {
        assertThatThrownBy(() -> reader.read("profiles: [", "broken.yaml")).isInstanceOf(ProfileException.class)
                .hasMessageContaining("broken.yaml").hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> reader.read("name: apc\n", "flat.yaml")).isInstanceOf(ProfileException.class)
                .hasMessageContaining("no 'profiles' list");
    }

    @Test
    @DisplayName("a key given twice and a flag that is not true or false are refused, as in every configuration file")
    void strict() {
        assertThatThrownBy(() -> reader.read(RARITAN.replace("    kind: power\n", "    kind: power\n    kind: soft\n"),
                "twice.yaml")).isInstanceOf(ProfileException.class).hasMessageContaining("twice.yaml: not valid YAML: ")
                .hasMessageContaining("Duplicate field 'kind'");
        String soft = """
                profiles:
                  - name: soft
                    kind: soft
                    prompt: '\\$ '
                    status: {command: 'uptime', on: ' up '}
                    reboot: {commands: ['reboot -f'], disconnects: 'yes', identity: 'cat /proc/sys/kernel/random/boot_id'}
                """;
        assertThatThrownBy(() -> reader.read(soft, "soft.yaml")).isInstanceOfSatisfying(ProfileException.class, e ->
                assertThat(e.issues()).extracting(ConfigProblem::toString).contains(
                        "soft.yaml:profiles[0].reboot.disconnects: must be true or false, not text"));
    }

    @Test
    @DisplayName("two profiles with one name in one file are refused")
    void duplicateName() {
        String twice = RARITAN + RARITAN.substring(RARITAN.indexOf("  - name"));

        assertThatThrownBy(() -> reader.read(twice, "twice.yaml")).isInstanceOf(ProfileException.class)
                .hasMessageContaining("the name 'raritan-px' is used twice");
    }

    @Test
    @DisplayName("placeholders go into commands as they are and into patterns quoted")
    void placeholders() {
        assertThat(Placeholders.command("interface {port}", "Gi1/0/5")).isEqualTo("interface Gi1/0/5");
        assertThat(Placeholders.pattern("^{plug}: On", "1.5").matcher("1x5: On").find()).isFalse();
        assertThat(Placeholders.pattern("^{plug}: On", "1.5").matcher("1.5: On").find()).isTrue();
        assertThat(List.of("{plug}", "{port}", "plug")).map(Placeholders::present).containsExactly(true, true, false);
    }
}
