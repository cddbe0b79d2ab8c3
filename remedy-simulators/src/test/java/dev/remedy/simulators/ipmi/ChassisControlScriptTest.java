package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chassis-control script that {@code ipmi_sim} runs, called the way {@code ipmi_sim} calls it (through
 * {@code sh -c}, values in double quotes), and the power target that shares its files.
 */
@DisplayName("The ipmi_sim chassis-control script and its power target")
class ChassisControlScriptTest {

    @TempDir
    Path dir;

    private FilePowerTarget target;

    @BeforeEach
    void prepare() throws IOException {
        assumeThat(Files.isExecutable(Path.of("/bin/sh"))).as("/bin/sh runs the script").isTrue();
        IpmiSimProcess.prepare(dir);
        target = new FilePowerTarget(dir.resolve("power"), dir.resolve("power.history"));
    }

    private String call(String operation) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("/bin/sh", "-c",
                dir.resolve("chassis-control.sh") + " " + dir.resolve("power") + " " + operation)
                .redirectErrorStream(true).start();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("script finished").isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(process.exitValue()).as("exit status of '%s', output %s", operation, output).isZero();
        return output;
    }

    @Test
    @DisplayName("a new machine is on; 'get power' prints power:1, and power:0 after 'set power \"0\"'")
    void getAndSetPower() throws Exception {
        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(call("get power")).isEqualTo("power:1\n");

        assertThat(call("set power \"0\"")).isEmpty();

        assertThat(call("get power")).isEqualTo("power:0\n");
        assertThat(target.power()).isEqualTo(PowerState.OFF);
        assertThat(target.history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("soft shutdown powers off, hard reset changes nothing, boot and identify are accepted")
    void otherOperations() throws Exception {
        call("set reset \"1\"");
        assertThat(target.history()).isEmpty();
        call("set identify \"15 0\"");
        call("set boot \"pxe\"");
        assertThat(call("get boot")).isEqualTo("boot:pxe\n");
        call("set shutdown \"1\"");

        assertThat(target.power()).isEqualTo(PowerState.OFF);
        assertThat(target.history()).containsExactly(PowerState.OFF);
        assertThat(Files.readAllLines(dir.resolve("power.calls")))
                .containsExactly("set reset 1", "set identify 15 0", "set boot pxe", "get boot", "set shutdown 1");
    }

    @Test
    @DisplayName("the power target and the script see each other's changes; repeating a state records nothing")
    void sharedFiles() throws Exception {
        target.power(PowerState.OFF);
        assertThat(call("get power")).isEqualTo("power:0\n");
        call("set power \"0\"");
        call("set power \"1\"");
        target.power(PowerState.ON);

        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
        target.clearHistory();
        assertThat(target.history()).isEmpty();
    }

    @Test
    @DisplayName("an unknown parameter fails with a message on stdout, where ipmi_sim logs it")
    void unknownParameter() throws Exception {
        Process process = new ProcessBuilder("/bin/sh", "-c",
                dir.resolve("chassis-control.sh") + " " + dir.resolve("power") + " set fan \"1\"")
                .redirectErrorStream(true).start();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).isEqualTo(1);
        assertThat(new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                .isEqualTo("unknown parameter: fan\n");
    }
}
