package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("SecretResolver")
class SecretResolverTest {

    private final SecretResolver system = SecretResolver.system(Map.of("BMC_PASSWORD", "from-env",
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
                .hasMessage("environment variable 'MISSING' is not set; set it in the environment of the process "
                        + "that runs remedy");
        assertThatThrownBy(() -> system.resolve(SecretRef.env("EMPTY"))).isInstanceOf(RemedyException.class)
                .hasMessageStartingWith("environment variable 'EMPTY' is empty; put the secret there");
    }

    @Test
    @DisplayName("the system resolver reads a file without its one trailing line break")
    void file(@TempDir Path dir) throws IOException {
        Path unix = Files.writeString(dir.resolve("unix"), "s3cret\n");
        Path windows = Files.writeString(dir.resolve("windows"), "s3cret\r\n");
        Path spaces = Files.writeString(dir.resolve("spaces"), " s3cret \n\n");
        Path mac = Files.writeString(dir.resolve("mac"), "s3cret\r");

        assertThat(system.resolve(SecretRef.file(unix.toString())).reveal()).isEqualTo("s3cret");
        assertThat(system.resolve(SecretRef.file(windows.toString())).reveal()).isEqualTo("s3cret");
        assertThat(system.resolve(SecretRef.file(spaces.toString())).reveal()).isEqualTo(" s3cret \n");
        assertThat(system.resolve(SecretRef.file(mac.toString())).reveal()).isEqualTo("s3cret");
    }

    @Test
    @DisplayName("the system resolver refuses a missing or empty file, naming it")
    void missingFile(@TempDir Path dir) throws IOException {
        String missing = dir.resolve("absent").toString();
        String empty = Files.writeString(dir.resolve("empty"), "\n").toString();

        assertThatThrownBy(() -> SecretResolver.system().resolve(SecretRef.file(missing)))
                .isInstanceOf(RemedyException.class)
                .hasMessage("cannot read the secret file '" + missing + "': no such file; check the path");
        assertThatThrownBy(() -> system.resolve(SecretRef.file(empty))).isInstanceOf(RemedyException.class)
                .hasMessageContaining("is empty");
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("the system resolver refuses a named pipe instead of waiting for a writer")
    void namedPipe(@TempDir Path dir) throws IOException, InterruptedException {
        Path fifo = dir.resolve("pipe");
        assumeThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        assertThatThrownBy(() -> system.resolve(SecretRef.file(fifo.toString()))).isInstanceOf(RemedyException.class)
                .hasMessageContaining(fifo.toString()).hasMessageContaining("not a regular file");
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("the system resolver refuses /dev/zero and a file over 64 KiB instead of reading them whole")
    void unbounded(@TempDir Path dir) throws IOException {
        Path big = Files.writeString(dir.resolve("big"), "x".repeat(70_000));

        assertThatThrownBy(() -> system.resolve(SecretRef.file(big.toString()))).isInstanceOf(RemedyException.class)
                .hasMessageContaining(big.toString()).hasMessageContaining("64 KiB").hasMessageNotContaining("xxx");
        assumeThat(Path.of("/dev/zero")).exists();
        assertThatThrownBy(() -> system.resolve(SecretRef.file("/dev/zero"))).isInstanceOf(RemedyException.class)
                .hasMessageContaining("/dev/zero").hasMessageContaining("not a regular file");
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
