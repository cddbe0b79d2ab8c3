package dev.remedy.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerLabelTest {

    @Test
    void commandLineShowsEveryOptionTheProgramRanWithAndMasksThePasswordInTheEnvironment() {
        PeerCommand ipmitool = new PeerCommand(List.of("ipmitool", "-I", "lanplus", "-C", "3", "-H", "127.0.0.1",
                "-p", "9623", "-U", "admin", "-E", "chassis", "power", "status"),
                Map.of("IPMI_PASSWORD", "s3cret"), "", Duration.ofSeconds(30));

        assertThat(PeerLabel.commandLine(ipmitool, "s3cret")).isEqualTo(
                "IPMI_PASSWORD=*** ipmitool -I lanplus -C 3 -H 127.0.0.1 -p 9623 -U admin -E chassis power status");
    }

    @Test
    void commandLineShowsTheStandardInputWithThePasswordMasked() {
        PeerCommand fence = new PeerCommand(List.of("fence_ipmilan"), Map.of(),
                "action=off\nip=127.0.0.1\npassword=s3cret\ncipher=3\n", Duration.ofSeconds(60));

        assertThat(PeerLabel.commandLine(fence, "s3cret"))
                .isEqualTo("fence_ipmilan <<< 'action=off; ip=127.0.0.1; password=***; cipher=3'")
                .doesNotContain("s3cret");
    }

    @Test
    void commandLineMasksThePasswordInAnArgument() {
        PeerCommand command = PeerCommand.of(Duration.ofSeconds(1), "tool", "--password=s3cret", "status");

        assertThat(PeerLabel.commandLine(command, "s3cret")).isEqualTo("tool --password=*** status");
    }

    @Test
    void ratioNoteSaysPlainlyThatTheTwoSidesAreNotMeasuredAlike() {
        assertThat(PeerLabel.ratioNote("ipmitool"))
                .isEqualTo("(remedy in-process, warm client; ipmitool: a new process per call)");
    }
}
