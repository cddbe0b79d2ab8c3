package dev.remedy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration documents are bounded input: size, line length, value length, nesting and aliases are checked as
 * they are read, so that no document makes a reader run out of memory, hang or parse for minutes. The timeouts
 * are hang guards, not performance assertions.
 */
@DisplayName("ConfigDocuments with hostile input")
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BoundedDocumentsTest {

    @TempDir
    private Path dir;

    /** A named pipe: opening it for reading waits for a writer that never comes. */
    static Path fifo(Path dir) throws IOException, InterruptedException {
        Path fifo = dir.resolve("pipe.yaml");
        int exit;
        try {
            exit = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
        } catch (IOException e) {
            exit = -1;
        }
        assumeThat(exit).as("mkfifo made a named pipe").isZero();
        return fifo;
    }

    @Test
    @DisplayName("refuses a 50 MB file with a single-line scalar by its size, before parsing it, and names the limit")
    void hugeFile() throws IOException {
        Path big = dir.resolve("big.yaml");
        Files.writeString(big, "a: " + "x".repeat(50_000_000), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> ConfigDocuments.read(big)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("8 MiB").hasMessageNotContaining("xxx");
    }

    @Test
    @DisplayName("refuses a line longer than 65536 characters, naming the line")
    void longLine() {
        String flow = "a: 1\nb: [" + "1,".repeat(100_000) + "1]\n";

        assertThatThrownBy(() -> ConfigDocuments.parseYaml(flow)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("line 2").hasMessageContaining("65536 characters");
    }

    @Test
    @DisplayName("refuses a value longer than 65536 characters, naming its line and not quoting it")
    void longValue() {
        String block = "a: 1\nb: |\n" + ("  " + "y".repeat(80) + "\n").repeat(1_000);

        assertThatThrownBy(() -> ConfigDocuments.parseYaml(block)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("line 2").hasMessageContaining("65536 characters")
                .hasMessageNotContaining("yyy");
    }

    @Test
    @DisplayName("refuses an alias, which Jackson would read as its anchor's name, and so a YAML bomb")
    void aliases() {
        StringBuilder bomb = new StringBuilder("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            String previous = "*" + (char) (c - 1);
            bomb.append(c).append(": &").append(c).append(" [").append(String.join(", ",
                    java.util.Collections.nCopies(9, previous))).append("]\n");
        }

        assertThatThrownBy(() -> ConfigDocuments.parseYaml("user: &u admin\nlogin: *u\n"))
                .isInstanceOf(DocumentException.class).hasMessageContaining("line 2")
                .hasMessageContaining("alias");
        assertThatThrownBy(() -> ConfigDocuments.parseYaml(bomb.toString())).isInstanceOf(DocumentException.class)
                .hasMessageContaining("alias");
    }

    @Test
    @DisplayName("refuses YAML and JSON nested deeper than 64 levels, naming the limit")
    void deepNesting() {
        String deep = "[".repeat(100) + "]".repeat(100);

        assertThatThrownBy(() -> ConfigDocuments.parseYaml("a: " + deep)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("deeper than 64 levels");
        assertThatThrownBy(() -> ConfigDocuments.parse("{\"a\": " + deep + "}", "x.json"))
                .isInstanceOf(DocumentException.class).hasMessageContaining("deeper than 64 levels");
    }

    @Test
    @DisplayName("accepts a document nested 30 levels deep")
    void reasonableNesting() {
        assertThat(ConfigDocuments.parseYaml("a: " + "[".repeat(30) + "]".repeat(30)).get("a").isArray()).isTrue();
    }

    @Test
    @DisplayName("refuses a named pipe instead of waiting for a writer")
    void namedPipe() throws IOException, InterruptedException {
        Path fifo = fifo(dir);

        assertThatThrownBy(() -> ConfigDocuments.read(fifo)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("not a regular file");
    }

    @Test
    @DisplayName("refuses a device such as /dev/zero instead of reading it until memory runs out")
    void device() throws IOException {
        Path zero = Path.of("/dev/zero");
        assumeThat(Files.exists(zero)).isTrue();
        Path link = Files.createSymbolicLink(dir.resolve("zero.yaml"), zero);

        assertThatThrownBy(() -> ConfigDocuments.read(link)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("not a regular file");
    }

    @Test
    @DisplayName("refuses a directory, saying so")
    void directory() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("conf.yaml"));

        assertThatThrownBy(() -> ConfigDocuments.read(folder)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("directory");
    }

    @Test
    @DisplayName("refuses bytes that are not UTF-8, saying so")
    void binary() throws IOException {
        Path garbage = Files.write(dir.resolve("garbage.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});

        assertThatThrownBy(() -> ConfigDocuments.read(garbage)).isInstanceOf(DocumentException.class)
                .hasMessageContaining("not UTF-8");
    }
}
