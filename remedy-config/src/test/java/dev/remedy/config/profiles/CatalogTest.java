package dev.remedy.config.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.config.profiles.FakeFormat.Fake;
import dev.remedy.spi.FencingKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("Catalog")
class CatalogTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("reads the shipped files in order, so a later one may name a profile of an earlier one")
    void builtIn() {
        assertThat(FakeFormat.SHIPPED.names()).containsExactly("pdu", "pdu2", "switch");
        assertThat(FakeFormat.SHIPPED.names(FencingKind.POWER)).containsExactly("pdu", "pdu2");
        assertThat(FakeFormat.SHIPPED.find("switch").orElseThrow().like()).hasValue("pdu");
        assertThat(FakeFormat.SHIPPED.find("nothing")).isEmpty();
    }

    @Test
    @DisplayName("a missing shipped file is a broken jar, named by its resource")
    void missingResource() {
        assertThatThrownBy(() -> Catalog.builtIn(FakeFormat.class, "/dev/remedy/config/profiles/shipped",
                List.of("outlets", "gone"), new FakeFormat())).isInstanceOf(IllegalStateException.class)
                .hasMessage("the built-in profile /dev/remedy/config/profiles/shipped/gone.yaml is missing from the "
                        + "jar");
    }

    @Test
    @DisplayName("a user's file goes on top: its profile replaces the built-in of its name and may name a built-in")
    void userFileOnTop() throws IOException {
        Path file = Files.writeString(dir.resolve("mine.yaml"), """
                profiles:
                  - {name: pdu, kind: fabric, like: pdu2}
                  - {name: mine, kind: power}
                """);

        Catalog<Fake> catalog = FakeFormat.SHIPPED.with(file);

        assertThat(catalog.names()).containsExactly("mine", "pdu", "pdu2", "switch");
        assertThat(catalog.find("pdu").orElseThrow().kind()).isEqualTo(FencingKind.FABRIC);
        assertThat(FakeFormat.SHIPPED.find("pdu").orElseThrow().kind()).isEqualTo(FencingKind.POWER);
        assertThat(FakeFormat.SHIPPED.read(file)).extracting(Fake::name).containsExactly("pdu", "mine");
    }

    @Test
    @DisplayName("a file that cannot be read, or holds a bad profile, is refused with the format's exception")
    void refused() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "profiles:\n  - {name: Bad, kind: power, like: x}\n");

        assertThatThrownBy(() -> FakeFormat.SHIPPED.with(dir.resolve("missing.yaml")))
                .isInstanceOf(FakeFormat.Refused.class).hasMessageContaining("missing.yaml");
        assertThatThrownBy(() -> FakeFormat.SHIPPED.read(bad)).isInstanceOfSatisfying(FakeFormat.Refused.class, e ->
                assertThat(e.issues()).extracting(Object::toString).containsExactly(
                        bad + ":profiles[0].name: 'Bad' is not a profile name; use lower-case letters, digits, '.', "
                                + "'_', '-'",
                        bad + ":profiles[0].like: 'x' is not known; name a built-in profile"));
        assertThatThrownBy(() -> new FakeFormat().read("devices: []", "t.yaml", java.util.Map.of()))
                .isInstanceOf(FakeFormat.Refused.class).hasMessageContaining("t.yaml: no 'profiles' list: write "
                        + "'profiles:' followed by one entry per device (see the built-in pdu profile)");
    }
}
