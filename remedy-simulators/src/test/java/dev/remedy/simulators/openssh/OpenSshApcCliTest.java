package dev.remedy.simulators.openssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.PeerCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The forced command apc-cli.sh run directly by /bin/sh (dash on Debian), without sshd or a terminal. */
class OpenSshApcCliTest {

    private static final String BANNER = "\r\n"
            + "American Power Conversion               Network Management Card AOS      v6.9.6\r\n"
            + "(c) Copyright 2020 All Rights Reserved  RPDU 2g v6.9.6\r\n"
            + "-------------------------------------------------------------------------------\r\n"
            + "Name      : remedy-sim-pdu                            Date : 11/22/2026\r\n"
            + "Contact   : Unknown                                   Time : 10:00:00\r\n"
            + "Location  : Unknown                                   User : Administrator\r\n"
            + "Up Time   : 0 Days 1 Hour 2 Minutes                   Stat : P+ N+ A+\r\n"
            + "\r\n"
            + "Type ? for command listing\r\n"
            + "Use tcpip command for IP address(-i), subnet(-s), and gateway(-g)\r\n";
    private static final String PROMPT = "\r\napc>";

    @TempDir
    Path dir;

    private String shell(ApcCli cli, String stdin) throws InterruptedException {
        PeerCommand.Result result = new PeerCommand(List.of("/bin/sh", cli.script().toString()), Map.of(), stdin,
                Duration.ofSeconds(10)).run();
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.output();
    }

    private String exec(ApcCli cli, String command) throws InterruptedException {
        PeerCommand.Result result = new PeerCommand(List.of("/bin/sh", cli.script().toString()),
                Map.of("SSH_ORIGINAL_COMMAND", command), "", Duration.ofSeconds(10)).run();
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.output();
    }

    @Test
    @DisplayName("a session without a terminal: banner, prompt, every command's answer, Bye. on exit")
    void dialogue() throws Exception {
        ApcCli cli = ApcCli.install(dir, 4);

        String transcript = shell(cli, "olStatus 3\r\nolOff 3\nOLSTATUS all\n\nolOn 0\nolOff 5\nolStatus 03\n"
                + "olStatus x\nolOn all\nolStatus\nfoo bar\nexit\nolOff 1\n");

        // PeerCommand strips the output: the banner's leading "\r\n" is gone.
        assertThat(transcript).isEqualTo(BANNER.strip() + "\r\n" + PROMPT
                + "E000: Success\r\n 3: Outlet 3: On\r\n" + PROMPT
                + "E000: Success\r\n" + PROMPT
                + "E000: Success\r\n 1: Outlet 1: On\r\n 2: Outlet 2: On\r\n 3: Outlet 3: Off\r\n 4: Outlet 4: On\r\n"
                + PROMPT
                + PROMPT
                + "E102: Parameter Error\r\n" + PROMPT
                + "E102: Parameter Error\r\n" + PROMPT
                + "E102: Parameter Error\r\n" + PROMPT
                + "E102: Parameter Error\r\n" + PROMPT
                + "E102: Parameter Error\r\n" + PROMPT
                + "E102: Parameter Error\r\n" + PROMPT
                + "E101: Command Not Found\r\n" + PROMPT
                + "Bye.");
        assertThat(cli.isOn(3)).isFalse();
        assertThat(cli.isOn(1)).as("nothing after exit runs").isTrue();
        assertThat(Files.readAllLines(cli.stateFile())).containsExactly("1 on", "2 on", "3 off", "4 on");
    }

    @Test
    @DisplayName("the end of the input ends the session, a last line without newline included; quit says Bye.")
    void endOfInput() throws Exception {
        ApcCli cli = ApcCli.install(dir, 8);

        assertThat(shell(cli, "olOff 8")).endsWith("E000: Success\r\n" + PROMPT);
        assertThat(cli.isOn(8)).isFalse();
        assertThat(shell(cli, "")).isEqualTo(BANNER.strip() + "\r\n" + PROMPT);
        assertThat(shell(cli, "quit\n")).endsWith(PROMPT + "Bye.");
    }

    @Test
    @DisplayName("an exec request runs its one command: no banner, no prompt")
    void execRequest() throws Exception {
        ApcCli cli = ApcCli.install(dir, 8);

        assertThat(exec(cli, "olStatus 2")).isEqualTo("E000: Success\r\n 2: Outlet 2: On");
        assertThat(exec(cli, "olOff 2\r")).isEqualTo("E000: Success");
        assertThat(exec(cli, "olStatus 2")).isEqualTo("E000: Success\r\n 2: Outlet 2: Off");
        assertThat(exec(cli, "olStatus 9")).isEqualTo("E102: Parameter Error");
        assertThat(exec(cli, "olStatus *")).as("no globbing").isEqualTo("E102: Parameter Error");
        assertThat(exec(cli, "whoami")).isEqualTo("E101: Command Not Found");
        assertThat(exec(cli, "exit")).isEqualTo("Bye.");
        assertThat(cli.isOn(2)).isFalse();
    }

    @Test
    @DisplayName("Java and the script share the state file: a change from either side shows on the other")
    void sharedState() throws Exception {
        ApcCli cli = ApcCli.install(dir, 8);
        assertThat(Files.readAllLines(cli.stateFile())).hasSize(8).allMatch(line -> line.endsWith(" on"));

        cli.set(6, false);
        assertThat(exec(cli, "olStatus 6")).isEqualTo("E000: Success\r\n 6: Outlet 6: Off");
        exec(cli, "olOn 6");
        assertThat(cli.isOn(6)).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cli.stateFile())))
                .isEqualTo("rw-r--r--");
        try (Stream<Path> files = Files.list(cli.stateDirectory())) {
            assertThat(files.toList()).as("no temporary file left").containsExactly(cli.stateFile());
        }

        assertThatThrownBy(() -> cli.isOn(9)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outlets 1 to 8");
        assertThatThrownBy(() -> cli.set(0, true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("a damaged state file is reported with its content")
    void damagedState() throws IOException {
        ApcCli cli = ApcCli.install(dir, 2);
        Files.writeString(cli.stateFile(), "1 on\n2 maybe\n");

        assertThatThrownBy(() -> cli.isOn(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("line 2", "2 maybe", cli.stateFile().toString());
    }
}
