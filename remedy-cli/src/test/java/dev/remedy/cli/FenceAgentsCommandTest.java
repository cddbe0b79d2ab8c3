package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("remedy fence-agents install")
class FenceAgentsCommandTest {

    @TempDir
    private Path dir;

    @Test
    @DisplayName("writes a launcher per agent into DIR, prints each file and what they run")
    void install() throws Exception {
        Path jar = Files.writeString(dir.resolve("remedy.jar"), "not really a jar");
        Path bin = Files.createDirectory(dir.resolve("sbin"));

        CliRunner.Result run = new CliRunner().run("fence-agents", "install", bin.toString(), "--jar", jar.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.OK);
        assertThat(run.outLines()).first().isEqualTo("wrote " + bin.resolve("fence_remedy_fake"));
        assertThat(run.out()).contains("on " + jar);
        assertThat(Files.readString(bin.resolve("fence_remedy_fake"))).contains("'" + jar + "'");
    }

    @Test
    @DisplayName("a file in the way is one line on stderr and exit 3")
    void fileInTheWay() throws Exception {
        Path jar = Files.writeString(dir.resolve("remedy.jar"), "not really a jar");
        Files.writeString(dir.resolve("fence_remedy_fake"), "someone else's");

        CliRunner.Result run = new CliRunner().run("fence-agents", "install", dir.toString(), "--jar", jar.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.errLines()).singleElement().asString().contains("is not a launcher written by remedy");
        assertThat(Files.readString(dir.resolve("fence_remedy_fake"))).isEqualTo("someone else's");
    }

    @Test
    @DisplayName("a --jar that is not a file is refused before anything is written")
    void missingJar() {
        CliRunner.Result run = new CliRunner().run("fence-agents", "install", dir.toString(), "--jar",
                dir.resolve("nope.jar").toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run.err()).contains("is not a file");
        assertThat(dir.resolve("fence_remedy_fake")).doesNotExist();
    }

    @Test
    @DisplayName("'remedy --help' lists fence-agents")
    void listedInHelp() {
        CliRunner.Result run = new CliRunner().run("--help");

        assertThat(run.out()).contains("fence-agents");
    }
}
