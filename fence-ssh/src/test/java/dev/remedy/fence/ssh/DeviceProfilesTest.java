package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.config.ConfigFileException;
import dev.remedy.spi.config.ConfigProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("DeviceProfiles.check")
class DeviceProfilesTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("names the profiles of a valid file, in file order")
    void valid() throws IOException {
        Path file = Files.writeString(dir.resolve("pdus.yml"), """
                profiles:
                  - {name: b-pdu, kind: power, prompt: '> ?', plug: '[0-9]+',
                     status: {command: 'st {plug}', on: 'On', off: 'Off'}, on: ['on {plug}'], off: ['off {plug}']}
                  - {name: a-switch, kind: fabric, prompt: '# ?', plug: '[0-9]+',
                     status: {command: 'show {plug}', on: 'enabled', off: 'disabled'}, on: ['enable {plug}'],
                     off: ['disable {plug}']}
                """);

        assertThat(DeviceProfiles.check(file)).containsExactly("b-pdu", "a-switch");
    }

    @Test
    @DisplayName("lists every problem of a bad file with its path, and refuses an alias as every configuration does")
    void invalid() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), """
                profiles:
                  - {name: x, kind: power, prompt: '(', status: {command: 'st', on: 'On', off: 'Off'}}
                """);
        Path alias = Files.writeString(dir.resolve("alias.yaml"), "a: &p {name: x}\nprofiles: [*p]\n");

        assertThatThrownBy(() -> DeviceProfiles.check(bad)).isInstanceOfSatisfying(ConfigFileException.class,
                e -> assertThat(e.issues()).extracting(ConfigProblem::path).contains("profiles[0].prompt",
                        "profiles[0].plug", "profiles[0].on", "profiles[0].off"));
        assertThatThrownBy(() -> DeviceProfiles.check(alias)).isInstanceOfSatisfying(ConfigFileException.class,
                e -> assertThat(e.issues()).singleElement().extracting(ConfigProblem::toString).asString()
                        .startsWith(alias + ": line 2").contains("alias"));
    }
}
