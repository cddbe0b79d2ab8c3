package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("SecretResolver")
class SecretResolverTest {

    private final SecretResolver system = new SystemSecretResolver(Map.of("BMC_PASSWORD", "from-env",
            "EMPTY", "")::get);

    @Test
    @DisplayName("the system resolver reads an environment variable")
    void environment() {
        assertThat(system.resolve(SecretRef.env("BMC_PASSWORD")).reveal()).isEqualTo("from-env");
    }

    @Test
    @DisplayName("the system resolver refuses an unset or empty variable, naming it")
    void unsetVariable() {
        assertThatThrownBy(() -> system.resolve(SecretRef.env("MISSING"))).isInstanceOf(RemedyException.class)
                .hasMessage("environment variable MISSING is not set; set it in the environment of the process "
                        + "that runs remedy");
        assertThatThrownBy(() -> system.resolve(SecretRef.env("EMPTY"))).isInstanceOf(RemedyException.class)
                .hasMessageStartingWith("the secret {env: EMPTY} is empty");
    }

    @Test
    @DisplayName("the system resolver reads a file without its one trailing line break")
    void file(@TempDir Path dir) throws IOException {
        Path unix = Files.writeString(dir.resolve("unix"), "s3cret\n");
        Path windows = Files.writeString(dir.resolve("windows"), "s3cret\r\n");
        Path spaces = Files.writeString(dir.resolve("spaces"), " s3cret \n\n");

        assertThat(system.resolve(SecretRef.file(unix.toString())).reveal()).isEqualTo("s3cret");
        assertThat(system.resolve(SecretRef.file(windows.toString())).reveal()).isEqualTo("s3cret");
        assertThat(system.resolve(SecretRef.file(spaces.toString())).reveal()).isEqualTo(" s3cret \n");
    }

    @Test
    @DisplayName("the system resolver refuses a missing or empty file, naming it")
    void missingFile(@TempDir Path dir) throws IOException {
        String missing = dir.resolve("absent").toString();
        String empty = Files.writeString(dir.resolve("empty"), "\n").toString();

        assertThatThrownBy(() -> SecretResolver.system().resolve(SecretRef.file(missing)))
                .isInstanceOf(RemedyException.class)
                .hasMessageStartingWith("cannot read the secret file " + missing + " (NoSuchFileException)");
        assertThatThrownBy(() -> system.resolve(SecretRef.file(empty))).isInstanceOf(RemedyException.class)
                .hasMessageContaining("is empty");
    }

    @Test
    @DisplayName("a map resolver gives exactly its secrets and names a reference it does not know")
    void map() {
        SecretResolver map = SecretResolver.of(Map.of(SecretRef.env("A"), Secret.of("a-value")));

        assertThat(map.resolve(SecretRef.env("A")).reveal()).isEqualTo("a-value");
        assertThatThrownBy(() -> map.resolve(SecretRef.file("/A"))).isInstanceOf(RemedyException.class)
                .hasMessage("no secret is known for {file: /A}; give it to the secret resolver");
    }

    @Test
    @DisplayName("a reference shows where the secret is, as written in the file, and needs a location")
    void reference() {
        assertThat(SecretRef.env("BMC_PASSWORD")).hasToString("{env: BMC_PASSWORD}");
        assertThat(SecretRef.file("/run/secrets/pdu")).hasToString("{file: /run/secrets/pdu}")
                .isEqualTo(new SecretRef(SecretRef.Kind.FILE, "/run/secrets/pdu"));
        assertThatThrownBy(() -> SecretRef.env(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
