package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.fence.ssh.internal.profile.DeviceProfile;
import dev.remedy.fence.ssh.internal.profile.Placeholders;
import dev.remedy.fence.ssh.internal.profile.ProfileCatalog;
import dev.remedy.simulators.ssh.SshDeviceSimulator;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plug with whitespace or control characters ({@code $'3\nolOff 1'}: a second command on the next line) never
 * reaches a device, whatever the profile's plug pattern lets through: it is refused when configured, and again
 * before anything is sent.
 */
class PlugInjectionTest {

    /** Plugs that a device's command line would read as more than one plug. */
    private static final List<String> SMUGGLING = List.of("3\nolOff 1", "3\rolOff 1", "3 olOff 1", "3\tolOff 1",
            "3\u0000", "3\u001b[A");

    @TempDir
    Path dir;

    private SshDeviceSimulator pdu;

    @AfterEach
    void stop() {
        if (pdu != null) {
            pdu.close();
        }
    }

    @Test
    @DisplayName("every built-in profile with a plug refuses each smuggling plug at configuration, naming plug")
    void everyBuiltInProfileRefusesAtConfiguration() {
        List<DeviceProfile> checked = new ArrayList<>();
        for (String name : ProfileCatalog.builtIn().names()) {
            DeviceProfile profile = ProfileCatalog.builtIn().find(name).orElseThrow();
            if (profile.kind() == FencingKind.SOFT) {
                continue;
            }
            checked.add(profile);
            for (String plug : SMUGGLING) {
                AgentConfig config = provider(profile.kind()).configure().set("ip", "pdu.example").set("username", "u")
                        .secret("password", Secret.of("p")).set("profile", name).set("plug", plug).build();
                assertThatThrownBy(() -> SshSettings.of(config, profile.kind())).as("%s %s", name, plug)
                        .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p.path()).isEqualTo("plug")));
            }
        }
        assertThat(checked).extracting(DeviceProfile::name).contains("apc", "cisco-ios", "brocade-fos");
    }

    @Test
    @DisplayName("every command of every built-in profile refuses a smuggling plug before it is typed")
    void everyBuiltInCommandRefusesBeforeSending() {
        int commands = 0;
        for (String name : ProfileCatalog.builtIn().names()) {
            DeviceProfile profile = ProfileCatalog.builtIn().find(name).orElseThrow();
            List<String> withPlug = new ArrayList<>(profile.on());
            withPlug.addAll(profile.off());
            withPlug.add(profile.status().command());
            for (String command : withPlug.stream().filter(Placeholders::present).toList()) {
                commands++;
                for (String plug : SMUGGLING) {
                    assertThatThrownBy(() -> Placeholders.command(command, plug)).as("%s: %s", name, command)
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not one word");
                }
                assertThat(Placeholders.command(command, "Gi1/0/5")).as(command).contains("Gi1/0/5");
            }
        }
        assertThat(commands).isGreaterThanOrEqualTo(6);
    }

    @Test
    @DisplayName("a user profile with a loose plug pattern: $'3\\nolOff 1' is refused, nothing is sent, outlet 1 stays on")
    void looseUserProfileAgainstTheSimulator() throws IOException, InterruptedException {
        pdu = SshDeviceSimulator.start(SshDeviceSpec.builder().user("admin", "pdu-secret").build());
        Path loose = Files.writeString(dir.resolve("loose.yaml"), """
                profiles:
                  - name: loose-apc
                    kind: power
                    prompt: 'apc>\\s*'
                    plug: '(?s).+'
                    status: {command: 'olStatus {plug}', on: '^\\s*3: .*: On\\s*$', off: '^\\s*3: .*: Off\\s*$'}
                    on: ['olOn {plug}']
                    off: ['olOff {plug}']
                    exit: exit
                """);
        AgentConfig.Builder config = new SshFenceAgentProvider().configure().set("ip", pdu.host())
                .set("ipport", Integer.toString(pdu.port())).set("username", "admin")
                .secret("password", Secret.of("pdu-secret")).set("profile", "loose-apc")
                .set("profile_file", loose.toString()).set("host_key_fingerprint", pdu.hostKeyFingerprint())
                .set("poll_interval", "20ms").set("shell_timeout", "1s");

        assertThatThrownBy(() -> new SshFenceAgentProvider().create(config.set("plug", "3\nolOff 1").build()))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems())
                        .anySatisfy(p -> assertThat(p.path()).isEqualTo("plug")));

        // a path past the configuration check (settings made directly) is refused again before the login
        SshSettings valid = SshSettings.of(config.set("plug", "3").build(), FencingKind.POWER);
        SshSettings smuggled = new SshSettings(valid.login(), valid.profile(), List.of("3\nolOff 1"),
                valid.loginTimeout(), valid.shellTimeout(), valid.powerTimeout(), valid.pollInterval(),
                valid.rebootOffTime(), valid.enablePassword());
        FenceOutcome off = new SshRun(smuggled, FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)))
                .run(FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.REFUSED);
        assertThat(off.detail()).contains("plug '3?olOff 1' is not one word").contains("nothing was sent");
        assertThat(pdu.sessionsOpened()).isZero();
        assertThat(pdu.commandLog()).isEmpty();
        assertThat(pdu.device().port("1").power()).isEqualTo(PowerState.ON);
        assertThat(pdu.device().port("3").power()).isEqualTo(PowerState.ON);
    }

    private static FenceAgentProvider provider(FencingKind kind) {
        return kind == FencingKind.FABRIC ? new SshFabricAgentProvider() : new SshFenceAgentProvider();
    }
}
