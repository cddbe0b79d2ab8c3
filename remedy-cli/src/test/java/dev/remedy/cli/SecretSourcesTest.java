package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.fake.FakePowerTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("secrets from the environment and from files")
class SecretSourcesTest {

    private final CliRunner cli = new CliRunner();
    private final String plug = CliRunner.uniquePlug();
    private final String password = "pw-" + UUID.randomUUID();
    private final FakePowerTarget target = cli.lab().create(plug, cli.time()).password(Secret.of(password));

    @TempDir
    private Path dir;

    private Path secretFile(String content, String permissions) throws IOException {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).as("POSIX file permissions").contains("posix");
        Path file = Files.writeString(dir.resolve("bmc-password"), content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    private CliRunner.Result offWithFile(Path file) {
        return cli.run("fence", "fake", "off", "-p", "plug=" + plug, "--secret-file", "password=" + file);
    }

    @Test
    @DisplayName("a password from an environment variable is accepted by the target")
    void fromEnvironment() {
        CliRunner.Result result = cli.variable("BMC_PASSWORD", password)
                .run("fence", "fake", "off", "-p", "plug=" + plug, "--secret-env", "password=BMC_PASSWORD");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(target.power()).isEqualTo(PowerState.OFF);
        assertThat(result.printed()).doesNotContain(password);
    }

    @Test
    @DisplayName("a password file's trailing newline is removed, so the target accepts it, and a 600 file gives no warning")
    void fromPrivateFile() throws IOException {
        Path file = secretFile(password + "\n", "rw-------");

        CliRunner.Result result = offWithFile(file);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(target.power()).isEqualTo(PowerState.OFF);
        assertThat(result.err()).doesNotContain("warning");
        assertThat(result.printed()).doesNotContain(password);
    }

    @Test
    @DisplayName("a password file with a Windows line ending works too")
    void fromFileWithCrLf() throws IOException {
        Path file = secretFile(password + "\r\n", "rw-------");

        CliRunner.Result result = offWithFile(file);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
    }

    @Test
    @DisplayName("a password file without a trailing newline works")
    void fromFileWithoutNewline() throws IOException {
        Path file = secretFile(password, "r--------");

        CliRunner.Result result = offWithFile(file);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
    }

    @Test
    @DisplayName("spaces around a password in a file are part of the password, only the line ending is removed")
    void fileKeepsSpaces() throws IOException {
        String spaced = "  " + password + " ";
        target.password(Secret.of(spaced));

        CliRunner.Result accepted = offWithFile(secretFile(spaced + "\n", "rw-------"));

        assertThat(accepted.exitCode()).as(accepted.toString()).isEqualTo(ExitCodes.OK);
        assertThat(target.power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("a file readable by other users still works but gives one warning line naming it")
    void sharedFileWarns() throws IOException {
        Path file = secretFile(password + "\n", "rw-r--r--");

        CliRunner.Result result = offWithFile(file);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.errLines()).filteredOn(l -> l.contains("warning")).singleElement().asString()
                .contains("'" + file + "'").contains("readable by other users").contains("chmod 600");
        assertThat(result.printed()).doesNotContain(password);
    }

    @Test
    @DisplayName("a file readable by its group also gives the warning")
    void groupReadableFileWarns() throws IOException {
        CliRunner.Result result = offWithFile(secretFile(password + "\n", "rw-r-----"));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.err()).contains("remedy: warning: secret file");
    }

    @Test
    @DisplayName("a wrong password from a file exits 1 and neither password is printed")
    void wrongPasswordFromFile() throws IOException {
        String wrong = "wrong-" + UUID.randomUUID();

        CliRunner.Result result = offWithFile(secretFile(wrong + "\n", "rw-------"));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.printed()).doesNotContain(wrong).doesNotContain(password);
        assertThat(target.power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("an empty environment variable is refused as an empty secret, naming the variable, before any action")
    void emptyVariable() {
        CliRunner.Result result = cli.variable("BMC_PASSWORD", "")
                .run("fence", "fake", "off", "-p", "plug=" + plug, "--secret-env", "password=BMC_PASSWORD");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("'BMC_PASSWORD'").contains("'password'").contains("empty");
        assertThat(target.power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("an empty secret file, or one with a line break only, is refused, naming the file")
    void emptyFile() throws IOException {
        CliRunner.Result empty = offWithFile(secretFile("", "rw-------"));
        CliRunner.Result newline = offWithFile(secretFile("\n", "rw-------"));

        assertThat(empty.exitCode()).as(empty.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(empty.err()).contains("bmc-password").contains("empty");
        assertThat(newline.exitCode()).as(newline.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(target.power()).isEqualTo(PowerState.ON);
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("a secret file that is a named pipe is refused instead of waiting for a writer")
    void namedPipe() throws IOException, InterruptedException {
        Path fifo = dir.resolve("pipe");
        assumeThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        CliRunner.Result result = offWithFile(fifo);

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("'" + fifo + "'").contains("not a regular file");
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("/dev/zero and a file over 64 KiB are refused instead of being read whole")
    void unbounded() throws IOException {
        Path big = Files.writeString(dir.resolve("big"), "x".repeat(70_000));
        assumeThat(Path.of("/dev/zero")).exists();

        CliRunner.Result zero = offWithFile(Path.of("/dev/zero"));
        CliRunner.Result large = offWithFile(big);

        assertThat(zero.exitCode()).as(zero.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(zero.err()).contains("'/dev/zero'").contains("not a regular file");
        assertThat(large.exitCode()).as(large.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(large.err()).contains("64 KiB").doesNotContain("xxx");
    }
}
