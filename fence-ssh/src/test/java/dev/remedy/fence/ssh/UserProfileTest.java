package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.simulators.ssh.DeviceCli;
import dev.remedy.simulators.ssh.Reply;
import dev.remedy.simulators.ssh.SimulatedDevice;
import dev.remedy.simulators.ssh.SshDeviceSimulator;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Profiles are data: a PDU whose command line the jar knows nothing about (a Raritan PX-style CLI, with its own
 * prompt, status format and y/n confirmation) is fenced through a profile read from a YAML file
 * ({@code profiles/raritan-px.yaml} in the test resources), with no code.
 */
class UserProfileTest {

    private SshDeviceSimulator pdu;
    private Path profileFile;

    @BeforeEach
    void start() {
        pdu = SshDeviceSimulator.start(SshDeviceSpec.builder().user("admin", "px-secret").cli(RaritanCli::new).build());
        profileFile = Path.of(URI.create(UserProfileTest.class.getResource("/profiles/raritan-px.yaml").toString()));
    }

    @AfterEach
    void stop() {
        pdu.close();
    }

    private AgentConfig config(String plug) {
        return new SshFenceAgentProvider().configure().set("ip", pdu.host()).set("ipport", Integer.toString(pdu.port()))
                .set("username", "admin").secret("password", Secret.of("px-secret")).set("profile", "raritan-px")
                .set("profile_file", profileFile.toString()).set("host_key_fingerprint", pdu.hostKeyFingerprint())
                .set("poll_interval", "20ms").set("plug", plug).build();
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action) throws InterruptedException {
        try (FenceAgent agent = new SshFenceAgentProvider().create(config)) {
            return agent.execute(new FenceRequest(action, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)));
        }
    }

    @Test
    @DisplayName("OFF and ON of a device the jar does not know, driven by the profile from the user's file")
    void unknownDeviceByProfile() throws InterruptedException {
        FenceOutcome off = run(config("7"), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("profile raritan-px").contains("plug 7 OFF (confirmed)");
        assertThat(pdu.device().port("7").power()).isEqualTo(PowerState.OFF);
        assertThat(pdu.commandLog()).containsSubsequence("show outlets 7", "power outlets 7 off", "show outlets 7");

        assertThat(run(config("7"), FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(pdu.device().port("7").power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("the device's own error text comes back; a plug outside the profile's form is refused up front")
    void errorsAndPlugForm() throws InterruptedException {
        FenceOutcome missing = run(config("42"), FenceAction.OFF);

        assertThat(missing.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(missing.detail()).contains("answered 'Error: outlet 42 does not exist'");
        assertThatThrownBy(() -> new SshFenceAgentProvider().create(config("7 off; power outlets 8")))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("has a character that a device's command line could take for more than a plug");
        assertThat(pdu.commandLog()).noneMatch(command -> command.contains("power outlets 8"));
    }

    /** A Raritan PX-style command line: {@code show outlets N}, {@code power outlets N on|off} with a y/n question. */
    private static final class RaritanCli implements DeviceCli {

        private static final Pattern SHOW = Pattern.compile("show outlets ([0-9]+)");
        private static final Pattern POWER = Pattern.compile("power outlets ([0-9]+) (on|off)");

        private final SimulatedDevice device;

        RaritanCli(SimulatedDevice device) {
            this.device = device;
        }

        @Override
        public String greeting() {
            return "Welcome to PX CLI!\r\nLast login: never\r\n";
        }

        @Override
        public String prompt() {
            return "# ";
        }

        @Override
        public Reply execute(String command) {
            Matcher show = SHOW.matcher(command);
            Matcher power = POWER.matcher(command);
            if (command.equals("exit")) {
                return Reply.close();
            }
            if (!show.matches() && !power.matches()) {
                return Reply.lines("Error: unknown command '" + command + "'");
            }
            String outlet = show.matches() ? show.group(1) : power.group(1);
            if (!device.plugs().contains(outlet)) {
                return Reply.lines("Error: outlet " + outlet + " does not exist");
            }
            ScheduledPowerTarget target = device.port(outlet);
            if (show.matches()) {
                return Reply.lines("Outlet " + outlet + ":", "Power state: "
                        + (target.power() == PowerState.ON ? "On" : "Off"));
            }
            String state = power.group(2);
            return Reply.ask("Do you wish to turn outlet " + outlet + " " + state + "? [y/n] ", answer -> {
                if (!answer.strip().equals("y")) {
                    return Reply.lines("Command cancelled");
                }
                target.power(state.equals("on") ? PowerState.ON : PowerState.OFF);
                return Reply.lines();
            });
        }
    }
}
