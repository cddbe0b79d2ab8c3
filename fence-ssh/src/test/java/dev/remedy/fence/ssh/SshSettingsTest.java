package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.fence.ssh.internal.session.HostKeyPolicy;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SshSettingsTest {

    @TempDir
    Path dir;

    private static AgentConfig.Builder pdu() {
        return new SshFenceAgentProvider().configure().set("ip", "pdu1").set("username", "apc")
                .secret("password", Secret.of("pdu-secret")).set("profile", "apc").set("plug", "3");
    }

    private static InvalidConfigurationException invalid(AgentConfig config, FencingKind kind) {
        try {
            SshSettings.of(config, kind);
        } catch (InvalidConfigurationException e) {
            return e;
        }
        throw new AssertionError("accepted: " + config);
    }

    @Test
    @DisplayName("a valid configuration: plugs split at commas, known_hosts by default, and the profile's kind")
    void valid() {
        SshSettings settings = SshSettings.of(pdu().set("plug", "3, 4").build(), FencingKind.POWER);

        assertThat(settings.plugs()).containsExactly("3", "4");
        assertThat(settings.profile().name()).isEqualTo("apc");
        assertThat(settings.login().hostKeys()).isInstanceOf(HostKeyPolicy.KnownHosts.class);
        assertThat(((HostKeyPolicy.KnownHosts) settings.login().hostKeys()).file().toString())
                .endsWith("/.ssh/known_hosts").doesNotStartWith("~");
        assertThat(settings.device()).isEqualTo("profile apc at apc@pdu1:22");
        assertThat(settings.insecure()).isFalse();
    }

    @Test
    @DisplayName("a plug that does not have the profile's form (a smuggled command) is refused before any connection")
    void plugInjection() {
        InvalidConfigurationException e = invalid(pdu().set("plug", "3; olOff all").build(), FencingKind.POWER);

        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("plug");
            assertThat(p.problem()).contains("'3; olOff all' has a character that a device's command line could "
                    + "take for more than a plug");
            assertThat(p.hint()).contains("[0-9]{1,3}");
        });
        assertThat(invalid(pdu().set("plug", "3,3").build(), FencingKind.POWER).getMessage())
                .contains("names a plug twice");
    }

    @Test
    @DisplayName("a plug with ';' or '$(' is refused even when the user's profile lets any plug through")
    void plugInjectionWithALaxProfile() throws IOException {
        Path lax = Files.writeString(dir.resolve("lax.yaml"), """
                profiles:
                  - name: lax
                    kind: power
                    prompt: '> ?'
                    plug: '.+'
                    status: {command: 'status {plug}', on: 'On', off: 'Off'}
                    on: ['on {plug}']
                    off: ['off {plug}']
                """);
        AgentConfig.Builder laxPdu = pdu().set("profile", "lax").set("profile_file", lax.toString());

        for (String plug : new String[] {"3;reboot", "$(reboot)", "`reboot`", "3|reboot", "3&reboot", "3\nreboot",
            "3 reboot"}) {
            InvalidConfigurationException e = invalid(laxPdu.set("plug", plug).build(), FencingKind.POWER);
            assertThat(e.problems()).as(plug).singleElement().satisfies(p -> {
                assertThat(p.path()).isEqualTo("plug");
                assertThat(p.problem()).contains("a character that a device's command line");
            });
        }
        assertThat(SshSettings.of(laxPdu.set("plug", "Gi1/0/5.100").build(), FencingKind.POWER).plugs())
                .containsExactly("Gi1/0/5.100");
    }

    @Test
    @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("a profile_file that is a named pipe or over 8 MiB is refused at once, as every configuration file")
    void boundedProfileFile() throws IOException, InterruptedException {
        Path fifo = dir.resolve("pipe.yaml");
        assumeThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Path big = Files.writeString(dir.resolve("big.yaml"), "profiles: []\n# " + "x".repeat(9 * 1024 * 1024));

        assertThat(invalid(pdu().set("profile_file", fifo.toString()).build(), FencingKind.POWER).problems())
                .singleElement().satisfies(p -> {
                    assertThat(p.path()).isEqualTo("profile_file");
                    assertThat(p.problem()).contains(fifo.toString()).contains("not a regular file");
                });
        assertThat(invalid(pdu().set("profile_file", big.toString()).build(), FencingKind.POWER).problems())
                .singleElement().satisfies(p -> assertThat(p.problem()).contains("8 MiB"));
    }

    @Test
    @DisplayName("enable_password is refused for a profile that never enters a privileged prompt, kept for cisco-ios")
    void enablePassword() {
        InvalidConfigurationException e = invalid(pdu().secret("enable_password", Secret.of("en-secret")).build(),
                FencingKind.POWER);

        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("enable_password");
            assertThat(p.problem()).contains("profile apc has no enable section").doesNotContain("en-secret");
        });
        SshSettings cisco = SshSettings.of(new SshFabricAgentProvider().configure().set("ip", "sw1")
                .set("username", "fence").secret("password", Secret.of("login-secret")).set("profile", "cisco-ios")
                .set("plug", "Gi1/0/5").secret("enable_password", Secret.of("en-secret")).build(), FencingKind.FABRIC);
        assertThat(cisco.enablePassword()).hasValueSatisfying(secret -> assertThat(secret.reveal())
                .isEqualTo("en-secret"));
        assertThat(cisco.profile().enable()).isPresent();
    }

    @Test
    @DisplayName("an unknown profile suggests the nearest; a profile of another kind names the agent type to use")
    void profileChoice() {
        assertThat(invalid(pdu().set("profile", "apcc").build(), FencingKind.POWER).getMessage())
                .contains("'apcc' is not a known device profile").contains("did you mean 'apc'?");
        assertThat(invalid(pdu().set("profile", "cisco-ios").set("plug", "Gi1/0/5").build(), FencingKind.POWER)
                .getMessage()).contains("'cisco-ios' is fabric fencing, not power fencing")
                .contains("use the agent type ssh-fabric");
    }

    @Test
    @DisplayName("every login and host key problem at once, and never the password")
    void everyProblemAtOnce() {
        AgentConfig config = new SshFenceAgentProvider().configure().set("ip", "pdu 1").set("ipport", "70000")
                .set("username", "apc").set("profile", "apc").set("plug", "3")
                .set("host_key_fingerprint", "SHA256:short").set("ssh_insecure", "true")
                .set("identity_file", dir.resolve("missing").toString()).set("cmd_prompt", "(apc").build();

        InvalidConfigurationException e = invalid(config, FencingKind.POWER);

        assertThat(e.problems()).extracting(p -> p.path()).contains("ip", "ipport", "ssh_insecure",
                "host_key_fingerprint", "identity_file", "cmd_prompt");
    }

    @Test
    @DisplayName("neither password nor identity_file is a problem; a password alone is enough")
    void credentials() {
        AgentConfig none = new SshFenceAgentProvider().configure().set("ip", "pdu1").set("username", "apc")
                .set("profile", "apc").set("plug", "3").build();

        assertThat(invalid(none, FencingKind.POWER).getMessage()).contains("neither password nor identity_file");
        assertThat(pdu().build().toString()).doesNotContain("pdu-secret");
    }

    @Test
    @DisplayName("a profile_file's problems are reported as configuration problems naming the file")
    void profileFileProblems() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "profiles:\n  - name: x\n    kind: power\n");

        InvalidConfigurationException e = invalid(pdu().set("profile_file", file.toString()).build(),
                FencingKind.POWER);

        assertThat(e.problems()).allSatisfy(p -> assertThat(p.path()).isEqualTo("profile_file"))
                .anySatisfy(p -> assertThat(p.problem()).contains(file + ":profiles[0].prompt: ").contains("is missing"));
    }

    @Test
    @DisplayName("the soft-fencing agent takes no plug and accepts only soft profiles")
    void softAgent() {
        AgentConfig host = new SshHostAgentProvider().configure().set("ip", "node-1").set("username", "root")
                .secret("password", Secret.of("x")).set("profile", "linux-sysrq").build();

        assertThat(SshSettings.of(host, FencingKind.SOFT).plugs()).isEmpty();
        assertThat(new SshHostAgentProvider().parameters()).noneMatch(p -> p.name().equals("plug"));
        assertThat(new SshFabricAgentProvider().parameters()).anyMatch(p -> p.name().equals("plug") && p.required());
    }

    @Test
    @DisplayName("a pinned fingerprint replaces known_hosts; ssh_insecure alone turns verification off")
    void hostKeyChoices() {
        String pin = "SHA256:" + "A".repeat(43);
        assertThat(SshSettings.of(pdu().set("host_key_fingerprint", pin).build(), FencingKind.POWER).login()
                .hostKeys()).isEqualTo(new HostKeyPolicy.Pinned(pin));
        assertThat(SshSettings.of(pdu().set("ssh_insecure", "true").build(), FencingKind.POWER).insecure()).isTrue();
        assertThatThrownBy(() -> new HostKeyPolicy.Pinned("MD5:aa:bb")).hasMessageContaining("ssh-keygen -l -E sha256");
        assertThat(SshSettings.of(pdu().set("host_key_fingerprint", "ssh-rsa " + pin).build(), FencingKind.POWER)
                .login().hostKeys()).isEqualTo(new HostKeyPolicy.Pinned(pin, Optional.of("ssh-rsa")));
        InvalidConfigurationException dss = invalid(pdu().set("host_key_fingerprint", "ssh-dss " + pin).build(),
                FencingKind.POWER);
        assertThat(dss.problems()).singleElement().satisfies(p -> assertThat(p.path()).isEqualTo("host_key_fingerprint"));
        assertThat(dss.getMessage()).contains("'ssh-dss' is not a host key type");
    }
}
