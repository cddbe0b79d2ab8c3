package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("remedy fence against the fake agent")
class FenceCommandTest {

    private final CliRunner cli = new CliRunner().variable("REMEDY_PW", "pw");
    private final String plug = CliRunner.uniquePlug();

    /** {@code remedy fence fake ACTION -p plug=PLUG MORE… --secret-env password=REMEDY_PW}. */
    private CliRunner.Result fence(String action, String... more) {
        List<String> args = new ArrayList<>(List.of("fence", "fake", action, "-p", "plug=" + plug));
        args.addAll(List.of(more));
        args.addAll(List.of("--secret-env", "password=REMEDY_PW"));
        return cli.run(args.toArray(String[]::new));
    }

    private FakePowerTarget target() {
        return cli.lab().find(plug).orElseThrow();
    }

    @Test
    @DisplayName("off on a reachable target exits 0, prints the outcome on stdout and progress on stderr, and powers it off")
    void off() {
        cli.lab().create(plug, cli.time());

        CliRunner.Result result = fence("off");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).singleElement().asString()
                .startsWith("OFF succeeded: power OFF")
                .contains("fake target '" + plug + "'");
        assertThat(result.errLines()).isNotEmpty()
                .allSatisfy(l -> assertThat(l).startsWith("remedy: fake off ["))
                .anySatisfy(l -> assertThat(l).contains("connecting to fake target '" + plug + "'"))
                .anySatisfy(l -> assertThat(l).contains("sending power OFF"));
        assertThat(target().power()).isEqualTo(PowerState.OFF);
        assertThat(target().history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("status after off exits 2 and prints 'Status: OFF'")
    void statusAfterOff() {
        cli.lab().create(plug, cli.time());
        assertThat(fence("off").exitCode()).isEqualTo(ExitCodes.OK);

        CliRunner.Result result = fence("status");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.STATUS_OFF);
        assertThat(result.outLines()).first().isEqualTo("Status: OFF");
        assertThat(result.out()).contains("STATUS succeeded: power OFF");
    }

    @Test
    @DisplayName("status of a target that is on exits 0 and prints 'Status: ON' without changing power")
    void statusOn() {
        FakePowerTarget target = cli.lab().create(plug, cli.time());

        CliRunner.Result result = fence("status");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).first().isEqualTo("Status: ON");
        assertThat(target.history()).as("no power change").isEmpty();
    }

    @Test
    @DisplayName("status of a target switched off behind remedy's back exits 2")
    void statusOfTargetOff() {
        cli.lab().create(plug, cli.time()).power(PowerState.OFF);

        CliRunner.Result result = fence("status");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.STATUS_OFF);
        assertThat(result.outLines()).first().isEqualTo("Status: OFF");
    }

    @Test
    @DisplayName("the action name is case-insensitive")
    void actionIgnoresCase() {
        cli.lab().create(plug, cli.time());

        CliRunner.Result result = fence("OFF");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(target().power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("on powers an off target back on and exits 0")
    void on() {
        cli.lab().create(plug, cli.time()).power(PowerState.OFF);

        CliRunner.Result result = fence("on");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("ON succeeded: power ON");
        assertThat(target().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("reboot exits 0 after OFF then ON were confirmed")
    void reboot() {
        FakePowerTarget target = cli.lab().create(plug, cli.time());

        CliRunner.Result result = fence("reboot");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("REBOOT succeeded: power ON");
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("list prints one 'id,alias,power' line per plug, this test's target included")
    void list() {
        cli.lab().create(plug, cli.time());
        String other = CliRunner.uniquePlug();
        cli.lab().create(other, cli.time()).power(PowerState.OFF);

        CliRunner.Result result = fence("list");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.outLines()).contains(plug + ",,ON", other + ",,OFF");
        assertThat(result.outLines()).last().asString().startsWith("LIST succeeded");
    }

    @Test
    @DisplayName("monitor of a reachable target exits 0 without changing power")
    void monitor() {
        FakePowerTarget target = cli.lab().create(plug, cli.time());

        CliRunner.Result result = fence("monitor");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.out()).startsWith("MONITOR succeeded");
        assertThat(target.history()).as("no power change").isEmpty();
    }

    @Test
    @DisplayName("fence-agents names are accepted for parameters, such as 'power_wait'")
    void fenceAgentsAlias() {
        cli.lab().create(plug, cli.time());

        CliRunner.Result result = fence("off", "-p", "power_wait=3s", "--param", "username=operator");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
        assertThat(result.err()).contains("as operator");
    }

    @Test
    @DisplayName("an unreachable device exits 4 with one outcome line naming the target")
    void unreachable() {
        String dead = FakePowerLab.UNREACHABLE_PREFIX + "-" + UUID.randomUUID();

        CliRunner.Result result = cli.run("fence", "fake", "off", "-p", "plug=" + dead,
                "--secret-env", "password=REMEDY_PW", "-t", "5s");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.TIMED_OUT);
        assertThat(result.outLines()).singleElement().asString()
                .startsWith("OFF timed out: power UNKNOWN")
                .contains("'" + dead + "'")
                .contains("5000 ms");
        assertThat(result.out()).doesNotContain("succeeded");
        assertThat(cli.lab().find(dead).orElseThrow().power()).as("nothing reached the target")
                .isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("the deadline given with --timeout is the one the agent works to")
    void timeoutIsPassedOn() {
        cli.lab().create(plug, cli.time()).transitionTime(Duration.ofMinutes(5));

        CliRunner.Result result = fence("off", "--timeout", "PT90S");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.TIMED_OUT);
        assertThat(result.out()).startsWith("OFF timed out").contains("90000 ms").contains("not confirmed");
        assertThat(cli.time().elapsed()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    @DisplayName("a wrong password exits 1, and neither the wrong nor the right password is printed")
    void wrongPassword() {
        String right = "right-" + UUID.randomUUID();
        String wrong = "wrong-" + UUID.randomUUID();
        FakePowerTarget target = cli.lab().create(plug, cli.time()).password(Secret.of(right));

        CliRunner.Result result = cli.variable("BMC_PW", wrong)
                .run("fence", "fake", "off", "-p", "plug=" + plug, "--secret-env", "password=BMC_PW");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.out()).startsWith("OFF failed").contains("refused the login");
        assertThat(result.printed()).doesNotContain(right).doesNotContain(wrong);
        assertThat(target.power()).isEqualTo(PowerState.ON);
    }
}
