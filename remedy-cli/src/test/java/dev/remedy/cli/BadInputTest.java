package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("remedy fence with bad input")
class BadInputTest {

    private static final String PLUG = "cli-bad-input-" + UUID.randomUUID();

    private final CliRunner cli = new CliRunner().variable("REMEDY_PW", "pw").variable("SOME_NAME", "operator");

    /** Exit 3, nothing on stdout, exactly one line on stderr with no stack trace, naming every fragment. */
    private void assertOneLineError(CliRunner.Result result, String... fragments) {
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).as(result.toString()).singleElement().asString()
                .startsWith("remedy: ")
                .contains(fragments)
                .doesNotContain("Exception")
                .doesNotContain("at dev.remedy");
        assertThat(result.err()).doesNotContain("\tat ");
        assertThat(result.out()).isEmpty();
        assertThat(cli.lab().find(PLUG)).as("no action reached the target").isEmpty();
    }

    private static List<String> fence(String... args) {
        List<String> all = new ArrayList<>(List.of("fence"));
        all.addAll(List.of(args));
        return all;
    }

    static Stream<Arguments> badInput() {
        String plug = "plug=" + PLUG;
        String secret = "password=REMEDY_PW";
        return Stream.of(
                Arguments.of("an unknown agent type is named, with the known types and what to do",
                        fence("nope", "off", "-p", plug, "--secret-env", secret),
                        List.of("unknown agent type 'nope'", "known types: fake", "Check the spelling")),
                Arguments.of("an unknown action is named, with the valid ones",
                        fence("fake", "explode", "-p", plug, "--secret-env", secret),
                        List.of("unknown action 'explode'", "on, off, reboot, status, list, monitor")),
                Arguments.of("a missing required parameter is named",
                        fence("fake", "off", "--secret-env", secret),
                        List.of("'plug'", "is required")),
                Arguments.of("a bad duration in -p names the parameter and the value",
                        fence("fake", "off", "-p", plug, "-p", "login_timeout=soonish", "--secret-env", secret),
                        List.of("'login_timeout'", "'soonish'", "duration")),
                Arguments.of("a bad --timeout names the option and the value",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "--timeout", "soonish"),
                        List.of("--timeout", "'soonish'", "30s")),
                Arguments.of("a zero -t is refused as not positive",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "-t", "0s"),
                        List.of("--timeout", "'0s'", "zero")),
                Arguments.of("a negative -t is refused",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "-t", "PT-5S"),
                        List.of("--timeout", "'PT-5S'", "negative")),
                Arguments.of("a -t over an hour is refused with the limit instead of being capped in silence",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "-t", "P999999999999D"),
                        List.of("--timeout", "'P999999999999D'", "longer than 1h", "at most 1h")),
                Arguments.of("a --timeout of two hours is refused with the limit",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "--timeout", "2h"),
                        List.of("--timeout", "'2h'", "at most 1h")),
                Arguments.of("-p without '=' says KEY=VALUE is expected",
                        fence("fake", "off", "-p", plug, "-p", "username", "--secret-env", secret),
                        List.of("-p", "KEY=VALUE")),
                Arguments.of("-p with an empty key says KEY=VALUE is expected",
                        fence("fake", "off", "-p", plug, "-p", "=admin", "--secret-env", secret),
                        List.of("-p", "KEY=VALUE")),
                Arguments.of("an unknown parameter gets a did-you-mean",
                        fence("fake", "off", "-p", plug, "-p", "usrname=admin", "--secret-env", secret),
                        List.of("'usrname'", "is not a parameter of agent 'fake'", "did you mean 'username'?")),
                Arguments.of("--secret-env naming an unset variable names the variable and the parameter",
                        fence("fake", "off", "-p", plug, "--secret-env", "password=NOT_SET_ANYWHERE"),
                        List.of("'NOT_SET_ANYWHERE'", "'password'", "is not set")),
                Arguments.of("--secret-env for a non-secret key says to use -p",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "--secret-env", "username=SOME_NAME"),
                        List.of("'username'", "is not a secret parameter", "-p username=VALUE")),
                Arguments.of("--secret-env for an unknown key names the secret parameters instead of advising -p",
                        fence("fake", "off", "-p", plug, "--secret-env", "pasword=REMEDY_PW"),
                        List.of("--secret-env", "'pasword'", "is not a parameter of agent 'fake'", "password")),
                Arguments.of("--secret-env without '=' says KEY=VARIABLE is expected",
                        fence("fake", "off", "-p", plug, "--secret-env", "REMEDY_PW"),
                        List.of("--secret-env", "KEY=VARIABLE")),
                Arguments.of("--secret-file for a non-secret key says to use -p",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "--secret-file", "plug=/etc/hostname"),
                        List.of("'plug'", "is not a secret parameter", "--secret-file")),
                Arguments.of("an unknown option is named by picocli",
                        fence("fake", "off", "-p", plug, "--secret-env", secret, "--frobnicate"),
                        List.of("--frobnicate", "remedy fence --help")),
                Arguments.of("a missing ACTION is named",
                        fence("fake"),
                        List.of("ACTION", "remedy fence --help")),
                Arguments.of("an unknown command is named",
                        List.of("frobnicate"),
                        List.of("'frobnicate'", "remedy --help")),
                Arguments.of("no command at all says one is required",
                        List.of(),
                        List.of("a command is required", "remedy --help")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    @DisplayName("bad input gives exit 3 and one line on stderr naming it")
    void oneLineNamingTheInput(String description, List<String> args, List<String> fragments) {
        CliRunner.Result result = cli.run(args.toArray(String[]::new));

        assertOneLineError(result, fragments.toArray(String[]::new));
    }

    @Test
    @DisplayName("a stray argument (a password typed in the wrong place) is refused without being repeated")
    void strayArgumentNotEchoed() {
        String password = "hunter2-" + UUID.randomUUID();

        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + PLUG, "--secret-env",
                "password=REMEDY_PW", password);

        assertOneLineError(result, "unexpected argument", "--help");
        assertThat(result.printed()).doesNotContain(password);
    }

    @Test
    @DisplayName("a secret given with -p is refused and its value is printed nowhere")
    void secretOnCommandLine() {
        String password = "hunter2-" + UUID.randomUUID();

        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + PLUG, "-p", "password=" + password);

        assertOneLineError(result, "'password'", "is secret", "--secret-env password=VARIABLE",
                "--secret-file password=PATH");
        assertThat(result.printed()).doesNotContain(password).doesNotContain("hunter2");
    }

    @Test
    @DisplayName("a secret given with -p is refused even with its other parameters valid and verbose on, and never echoed")
    void secretOnCommandLineVerbose() {
        String password = "hunter2-" + UUID.randomUUID();

        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + PLUG, "-p", "password=" + password,
                "--secret-env", "password=REMEDY_PW", "--verbose");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.printed()).contains("'password' is secret").doesNotContain(password);
    }

    @Test
    @DisplayName("a mistyped secret key given with -p is refused as unknown without echoing its value")
    void mistypedSecretOnCommandLine() {
        String password = "hunter2-" + UUID.randomUUID();

        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + PLUG, "-p", "passwd=" + password,
                "--secret-env", "password=REMEDY_PW");

        assertOneLineError(result, "'passwd'", "is not a parameter");
        assertThat(result.printed()).doesNotContain(password);
    }

    @Test
    @DisplayName("--secret-file with a missing file names the file and the parameter, without an exception name")
    void missingSecretFile(@TempDir Path dir) {
        Path missing = dir.resolve("no-such-password");

        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + PLUG,
                "--secret-file", "password=" + missing);

        assertOneLineError(result, "'" + missing + "'", "'password'", "no such file");
    }

    @Test
    @DisplayName("--secret-file naming a directory says so")
    void secretFileIsADirectory(@TempDir Path dir) {
        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + PLUG,
                "--secret-file", "password=" + dir);

        assertOneLineError(result, "'" + dir + "'", "'password'", "directory");
    }
}
