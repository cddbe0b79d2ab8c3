package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy: errors, --verbose, help and the exit codes of every outcome")
class RemedyCliTest {

    private static CliRunner stub(Function<FenceRequest, FenceOutcome> behaviour) {
        return new CliRunner().registry(FenceAgentRegistry.of(new FakeFenceAgentProvider(),
                new StubFenceAgentProvider("stub", behaviour)));
    }

    @Test
    @DisplayName("--verbose prints the stack trace of a bad input after its one-line message")
    void verbosePrintsStackTrace() {
        CliRunner.Result result = new CliRunner().run("fence", "nope", "off", "-p", "plug=x", "--verbose");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).first().asString().startsWith("remedy: unknown agent type 'nope'");
        assertThat(result.errLines()).hasSizeGreaterThan(1)
                .anySatisfy(l -> assertThat(l).contains("at dev.remedy."));
        assertThat(result.err()).contains("\tat ");
    }

    @Test
    @DisplayName("without --verbose the same bad input prints no stack trace")
    void noStackTraceWithoutVerbose() {
        CliRunner.Result result = new CliRunner().run("fence", "nope", "off", "-p", "plug=x");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.errLines()).singleElement().asString().startsWith("remedy: unknown agent type 'nope'");
        assertThat(result.err()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    @DisplayName("an agent that throws is an internal error: exit 1, one line asking for --verbose, no stack trace")
    void internalError() {
        CliRunner.Result result = stub(r -> {
            throw new IllegalStateException("stub agent broke");
        }).run("fence", "stub", "status", "-p", "plug=x");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.errLines()).singleElement().asString()
                .contains("internal error").contains("stub agent broke").contains("--verbose");
        assertThat(result.err()).doesNotContain("\tat ");
    }

    @Test
    @DisplayName("an internal error with --verbose prints the stack trace")
    void internalErrorVerbose() {
        CliRunner.Result result = stub(r -> {
            throw new IllegalStateException("stub agent broke");
        }).run("fence", "stub", "status", "-p", "plug=x", "--verbose");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.err()).contains("internal error").contains("\tat ")
                .contains(StubFenceAgentProvider.class.getName());
    }

    @Test
    @DisplayName("an unsupported action exits 5")
    void unsupported() {
        CliRunner.Result result = stub(r -> FenceOutcome.unsupported("stub", r.action()))
                .run("fence", "stub", "reboot", "-p", "plug=x");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.UNSUPPORTED);
        assertThat(result.out()).startsWith("REBOOT unsupported").contains("does not support action 'reboot'");
    }

    @Test
    @DisplayName("a refusal exits 6 and prints its cause")
    void refused() {
        CliRunner.Result result = stub(r -> FenceOutcome.refused("host key of bmc-7 is unknown")
                .withCause(new SecurityException("no known_hosts entry")))
                .run("fence", "stub", "off", "-p", "plug=x");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(result.outLines()).containsExactly(
                "OFF refused: power UNKNOWN, 0 attempts, 0.00 s: host key of bmc-7 is unknown",
                "  cause: java.lang.SecurityException: no known_hosts entry");
    }

    @Test
    @DisplayName("a failure exits 1 even when the agent read a power state")
    void failed() {
        CliRunner.Result result = stub(r -> FenceOutcome.of(FenceStatus.FAILED, PowerState.ON, "device said no")
                .withAttempts(3)).run("fence", "stub", "off", "-p", "plug=x");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.out()).isEqualTo("OFF failed: power ON, 3 attempts, 0.00 s: device said no"
                + System.lineSeparator());
    }

    @Test
    @DisplayName("--help prints the usage with the commands and exits 0")
    void help() {
        CliRunner.Result result = new CliRunner().run("--help");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("Usage: remedy").contains("agents").contains("fence").contains("demo");
    }

    @Test
    @DisplayName("fence --help lists the exit codes")
    void fenceHelp() {
        CliRunner.Result result = new CliRunner().run("fence", "--help");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).contains("--secret-env").contains("--secret-file").contains("--timeout")
                .contains("Exit codes: 0 ok (STATUS: on), 1 failed, 2 STATUS off, 3 bad input, 4 timed out,");
    }

    @Test
    @DisplayName("the usage advice of a parse error works: 'remedy fence --help' exits 0 despite TYPE and ACTION missing")
    void adviceOfParseErrorWorks() {
        CliRunner.Result error = new CliRunner().run("fence", "fake");
        assertThat(error.err()).contains("Run 'remedy fence --help' for usage");

        CliRunner.Result help = new CliRunner().run("fence", "--help");

        assertThat(help.exitCode()).as(help.toString()).isEqualTo(ExitCodes.OK);
        assertThat(help.out()).contains("Usage: remedy fence").contains("TYPE").contains("ACTION");
        assertThat(help.err()).isEmpty();
    }

    @Test
    @DisplayName("agents --help and demo --help print their usage and exit 0")
    void subcommandHelp() {
        CliRunner.Result agents = new CliRunner().run("agents", "--help");
        CliRunner.Result demo = new CliRunner().run("demo", "-h");

        assertThat(agents.exitCode()).as(agents.toString()).isEqualTo(ExitCodes.OK);
        assertThat(agents.out()).contains("Usage: remedy agents");
        assertThat(demo.exitCode()).as(demo.toString()).isEqualTo(ExitCodes.OK);
        assertThat(demo.out()).contains("Usage: remedy demo");
    }

    @Test
    @DisplayName("--version prints the version and exits 0")
    void version() {
        CliRunner.Result result = new CliRunner().run("--version");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("remedy ");
    }
}
