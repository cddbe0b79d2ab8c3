package dev.remedy.fence.snmp.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.config.ConfigProblem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProfileReaderTest {

    private static List<ConfigProblem> problems(String yaml) {
        try {
            new ProfileReader().read(yaml, "test.yaml", Map.of());
        } catch (ProfileException e) {
            return e.issues();
        }
        throw new AssertionError("accepted:\n" + yaml);
    }

    @Test
    @DisplayName("a user's table profile with a two-part index and pending values is read")
    void valid() {
        List<Profile> profiles = new ProfileReader().read("""
                profiles:
                  - name: my-pdu
                    kind: power
                    plug: '((?<bank>[1-4])/)?(?<outlet>[1-9][0-9]?)'
                    index: '{bank|1}.{outlet}'
                    names: '.1.3.6.1.4.1.99999.1.2'
                    status: {oid: '.1.3.6.1.4.1.99999.1.3.{index}', on: [1, 5], off: 0, pending: 9}
                    on: {oid: '1.3.6.1.4.1.99999.1.4.{index}', value: 1}
                    off: {oid: '1.3.6.1.4.1.99999.1.4.{index}', value: 0}
                """, "test.yaml", Map.of());

        assertThat(profiles).singleElement().isInstanceOfSatisfying(DeviceProfile.class, p -> {
            assertThat(p.indexOf("2/7")).hasValue("2.7");
            assertThat(p.indexOf("7")).hasValue("1.7");
            assertThat(p.status().on()).containsExactlyInAnyOrder(1, 5);
            assertThat(p.status().pending()).containsExactly(9);
            assertThat(p.names()).containsExactly(new Oid("1.3.6.1.4.1.99999.1.2"));
            assertThat(p.description()).isEqualTo("my-pdu");
        });
    }

    @Test
    @DisplayName("every problem of a profile is listed at once, each at its path")
    void everyProblem() {
        List<ConfigProblem> problems = problems("""
                profiles:
                  - name: Bad Name
                    kind: power
                    plug: '[0-9'
                    statuss: {}
                    on: {oid: '1.3.6.1.4.1.99999.1.4', value: 1}
                    off: {oid: '1.3.6.x.{index}', value: 'off'}
                """);

        assertThat(problems).extracting(ConfigProblem::path).contains("profiles[0].name", "profiles[0].plug",
                "profiles[0].statuss", "profiles[0].status", "profiles[0].on.oid", "profiles[0].off.oid",
                "profiles[0].off.value");
        assertThat(problems).allSatisfy(p -> assertThat(p.source()).isEqualTo("test.yaml"));
        assertThat(problems.toString()).contains("has no {index}", "is not an OID", "is not a valid regular "
                + "expression");
    }

    @Test
    @DisplayName("a value cannot mean two states; an index group must exist in plug")
    void meanings() {
        List<ConfigProblem> problems = problems("""
                profiles:
                  - name: twice
                    kind: power
                    plug: '[0-9]+'
                    index: '{unit|0}.{plug}'
                    status: {oid: '1.3.6.1.4.1.99999.1.3.{index}', on: [1, 2], off: 2}
                    on: {oid: '1.3.6.1.4.1.99999.1.4.{index}', value: 1}
                    off: {oid: '1.3.6.1.4.1.99999.1.4.{index}', value: 0}
                """);

        assertThat(problems).extracting(ConfigProblem::path).containsExactlyInAnyOrder("profiles[0].status",
                "profiles[0].index");
        assertThat(problems.toString()).contains("gives a value two meanings", "names the group 'unit'");
    }

    @Test
    @DisplayName("a fabric profile must say whether its isolation persists, and has no reboot")
    void fabric() {
        List<ConfigProblem> problems = problems("""
                profiles:
                  - name: switch
                    kind: fabric
                    plug: '[0-9]+'
                    status: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', on: 1, off: 2}
                    on: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 1}
                    off: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 2}
                    reboot: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 3, delay: '1.3.6.1.2.1.2.2.1.8.{index}'}
                """);

        assertThat(problems).extracting(ConfigProblem::path).containsExactlyInAnyOrder("profiles[0].isolationPersists",
                "profiles[0].reboot");
    }

    @Test
    @DisplayName("a choice names known table profiles of its own kind, two or more")
    void choices() {
        List<ConfigProblem> problems = problems("""
                profiles:
                  - name: port
                    kind: fabric
                    plug: '[0-9]+'
                    status: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', on: 1, off: 2}
                    on: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 1}
                    off: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 2}
                    isolationPersists: false
                  - name: any-pdu
                    kind: power
                    choose: [port, nowhere]
                """);

        assertThat(problems).extracting(ConfigProblem::path).containsExactlyInAnyOrder("profiles[1].choose[0]",
                "profiles[1].choose[1]");
        assertThat(problems.toString()).contains("'port' is fabric, not power", "'nowhere' is not a known profile");
    }

    @Test
    @DisplayName("a choice may name built-in tables")
    void choiceOfBuiltIns() {
        List<Profile> profiles = new ProfileReader().read("""
                profiles:
                  - name: apc-old-first
                    kind: power
                    choose: [apc-spdu, apc-rpdu2]
                """, "test.yaml", Map.of("apc-spdu", ProfileCatalog.builtIn().find("apc-spdu").orElseThrow(),
                "apc-rpdu2", ProfileCatalog.builtIn().find("apc-rpdu2").orElseThrow()));

        assertThat(profiles).singleElement().isInstanceOfSatisfying(ProfileChoice.class, c ->
                assertThat(c.candidates()).extracting(DeviceProfile::name).containsExactly("apc-spdu", "apc-rpdu2"));
    }

    @Test
    @DisplayName("a file without a profiles list says what to write")
    void noList() {
        assertThatThrownBy(() -> new ProfileReader().read("devices: []", "test.yaml", Map.of()))
                .isInstanceOf(ProfileException.class).hasMessageContaining("no 'profiles' list");
    }
}
