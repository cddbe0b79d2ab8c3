package dev.remedy.fence.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.KeyPair;
import dev.remedy.simulators.ssh.DeviceKind;
import dev.remedy.simulators.ssh.HostKeyType;
import dev.remedy.simulators.ssh.SshDeviceSimulator;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three SSH agents against the simulated devices of remedy-simulators: every profile, every fault, every host key case. */
class SshFenceAgentTest {

    private static final String PASSWORD = "ssh-agent-test-secret";
    private static final String ENABLE_SECRET = "enable-test-s3cret";

    @TempDir
    Path dir;

    private SshDeviceSimulator device;

    @AfterEach
    void stop() {
        if (device != null) {
            device.close();
        }
    }

    private SshDeviceSimulator start(SshDeviceSpec.Builder spec) {
        device = SshDeviceSimulator.start(spec.user("admin", PASSWORD).build());
        return device;
    }

    private AgentConfig.Builder config(FenceAgentProvider provider, String profile) {
        return provider.configure().set("ip", device.host()).set("ipport", Integer.toString(device.port()))
                .set("username", "admin").secret("password", Secret.of(PASSWORD)).set("profile", profile)
                .set("host_key_fingerprint", device.hostKeyFingerprint()).set("poll_interval", "20ms")
                .set("shell_timeout", "1s");
    }

    private AgentConfig.Builder apc() {
        return config(new SshFenceAgentProvider(), "apc");
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action) throws InterruptedException {
        return run(config, action, Duration.ofSeconds(10));
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action, Duration budget)
            throws InterruptedException {
        return run(config, action, FenceContext.start(TimeSource.system(), budget));
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action, FenceContext context)
            throws InterruptedException {
        FenceAgentProvider provider = switch (config.agentType()) {
            case SshFabricAgentProvider.TYPE -> new SshFabricAgentProvider();
            case SshHostAgentProvider.TYPE -> new SshHostAgentProvider();
            default -> new SshFenceAgentProvider();
        };
        try (FenceAgent agent = provider.create(config)) {
            return agent.execute(new FenceRequest(action, "test"), context);
        }
    }

    @Test
    @DisplayName("APC with confirmations: OFF answers 'YES', reads the outlet back OFF, and logs out")
    void apcConfirmation() throws InterruptedException {
        start(SshDeviceSpec.builder().confirmations(true));

        FenceOutcome off = run(apc().set("plug", "3").build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).isEqualTo("profile apc at admin@127.0.0.1:" + device.port() + ": plug 3 OFF (confirmed)");
        assertThat(device.device().port("3").power()).isEqualTo(PowerState.OFF);
        assertThat(device.device().port("2").power()).isEqualTo(PowerState.ON);
        assertThat(device.commandLog()).containsSubsequence("olStatus 3", "olOff 3", "olStatus 3", "exit");
        assertThat(off.attempts()).isEqualTo(3);
    }

    @Test
    @DisplayName("dual power supplies: OFF succeeds only when every plug reads off; STATUS is ON while any is on")
    void everyPlug() throws InterruptedException {
        start(SshDeviceSpec.builder());
        device.device().port("5").delay(Duration.ofSeconds(30));
        AgentConfig config = apc().set("plug", "4,5").set("power_timeout", "300ms").build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.power()).isEqualTo(PowerState.ON);
        assertThat(off.detail()).contains("not every plug reads OFF within power_timeout").contains("plug 4 OFF")
                .contains("plug 5 ON");
        assertThat(off.plugs()).extracting(Plug::id, Plug::power)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("4", PowerState.OFF),
                        org.assertj.core.groups.Tuple.tuple("5", PowerState.ON));
        FenceOutcome status = run(config, FenceAction.STATUS);
        assertThat(status.power()).isEqualTo(PowerState.ON);

        device.device().port("5").delay(Duration.ZERO);
        device.device().port("5").power(PowerState.OFF);
        assertThat(run(config, FenceAction.STATUS).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("REBOOT of a PDU outlet is OFF confirmed, then ON confirmed, never the device's own reboot command")
    void rebootIsOffThenOn() throws InterruptedException {
        start(SshDeviceSpec.builder());

        FenceOutcome reboot = run(apc().set("plug", "2").build(), FenceAction.REBOOT);

        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("2").history()).containsSubsequence(PowerState.OFF, PowerState.ON);
        assertThat(device.commandLog()).contains("olOff 2", "olOn 2").noneMatch(c -> c.startsWith("olReboot"));
    }

    @Test
    @DisplayName("REBOOT keeps the outlet off for reboot_off_time between olOff and olOn, as the PDU's clock sees it")
    void rebootKeepsTheOutletOff() throws InterruptedException {
        FakeTimeSource time = new FakeTimeSource();
        start(SshDeviceSpec.builder().nanoClock(time::nanoTime));

        FenceOutcome reboot = run(apc().set("plug", "2").set("reboot_off_time", "7s").build(), FenceAction.REBOOT,
                FenceContext.start(time, Duration.ofSeconds(30)));

        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().offTimes("2")).containsExactly(Duration.ofSeconds(7));
    }

    @Test
    @DisplayName("LIST pages through a long listing with the profile's pager key")
    void listWithPaging() throws InterruptedException {
        start(SshDeviceSpec.builder().ports(20).pageLength(6).portNames(Map.of("7", "node-7")));
        device.device().port("9").power(PowerState.OFF);

        FenceOutcome list = run(apc().set("plug", "1").build(), FenceAction.LIST);

        assertThat(list.status()).as("%s", list).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(list.plugs()).hasSize(20);
        assertThat(list.plugs().get(6)).isEqualTo(new Plug("7", "node-7", PowerState.ON));
        assertThat(list.plugs().get(8).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("an error reply fails the action with the device's own words")
    void errorReply() throws InterruptedException {
        start(SshDeviceSpec.builder());
        device.faults().errorOn("olOff", "E102: Parameter Error");

        FenceOutcome off = run(apc().set("plug", "3").build(), FenceAction.OFF);

        assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("answered 'E102: Parameter Error' to 'olOff 3'");
        assertThat(device.device().port("3").power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("a device that hangs mid-command times out by shell_timeout, and the session is closed")
    void hangsMidCommand() throws InterruptedException {
        start(SshDeviceSpec.builder());
        device.faults().hangOn("olOff");

        long start = System.nanoTime();
        FenceOutcome off = run(apc().set("plug", "3").set("shell_timeout", "400ms").build(), FenceAction.OFF);

        assertThat(off.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(off.detail()).contains("no prompt from admin@127.0.0.1").contains("within 400 ms (shell_timeout)")
                .contains("after 'olOff 3'");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        awaitNoSessions();
    }

    @Test
    @DisplayName("a device that never shows its prompt fails within login_timeout, naming cmd_prompt")
    void wrongPrompt() throws InterruptedException {
        start(SshDeviceSpec.builder());

        FenceOutcome status = run(apc().set("plug", "3").set("cmd_prompt", "pdu#").set("login_timeout", "500ms")
                .build(), FenceAction.STATUS);

        assertThat(status.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(status.detail()).contains("the first prompt after login").contains("last line: 'apc>'")
                .contains("set cmd_prompt").contains("within 500 ms (login_timeout)").contains("raise login_timeout")
                .doesNotContain("shell_timeout");
    }

    @Test
    @DisplayName("a pinned fingerprint that does not match, or a rotated key against known_hosts: REFUSED, nothing sent")
    void changedHostKey() throws IOException, InterruptedException {
        start(SshDeviceSpec.builder());
        Path knownHosts = Files.writeString(dir.resolve("known_hosts"), device.knownHostsLine() + "\n");
        AgentConfig byFile = apc().set("host_key_fingerprint", "").set("known_hosts", knownHosts.toString())
                .set("plug", "3").build();
        assertThat(run(byFile, FenceAction.STATUS).status()).isEqualTo(FenceStatus.SUCCEEDED);
        String old = device.hostKeyFingerprint();

        device.rotateHostKey();
        FenceOutcome byFileNow = run(byFile, FenceAction.OFF);
        FenceOutcome byPin = run(apc().set("host_key_fingerprint", old).set("plug", "3").build(), FenceAction.OFF);

        assertThat(byFileNow.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(byFileNow.detail()).contains("has CHANGED").contains(device.hostKeyFingerprint());
        assertThat(byPin.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(device.device().port("3").power()).isEqualTo(PowerState.ON);
        assertThat(device.commandLog()).doesNotContain("olOff 3");
    }

    @Test
    @DisplayName("a device with ed25519 and RSA host keys: an RSA pin with its type offers only RSA and passes; "
            + "an RSA pin without its type is CHANGED, with how to give the type")
    void pinOfTheSecondKeyType() throws InterruptedException {
        start(SshDeviceSpec.builder().hostKeyType(HostKeyType.ED25519).secondHostKey(HostKeyType.RSA));
        String rsa = device.hostKeyFingerprint(HostKeyType.RSA);

        FenceOutcome typed = run(apc().set("host_key_fingerprint", "ssh-rsa " + rsa).set("plug", "3").build(),
                FenceAction.OFF);
        FenceOutcome untyped = run(apc().set("host_key_fingerprint", rsa).set("plug", "4").build(), FenceAction.OFF);

        assertThat(typed.status()).as("%s", typed).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("3").power()).isEqualTo(PowerState.OFF);
        assertThat(untyped.status()).as("%s", untyped).isEqualTo(FenceStatus.REFUSED);
        assertThat(untyped.detail()).contains("has CHANGED")
                .contains("ssh-ed25519 " + device.hostKeyFingerprint(HostKeyType.ED25519))
                .contains("host_key_fingerprint='ssh-rsa " + rsa + "'");
        assertThat(device.device().port("4").power()).isEqualTo(PowerState.ON);
        assertThat(run(apc().set("host_key_fingerprint", "ssh-ed25519 " + rsa).set("plug", "4").build(),
                FenceAction.STATUS).status()).as("an RSA fingerprint pinned as ed25519").isEqualTo(FenceStatus.REFUSED);
    }

    @Test
    @DisplayName("an unknown host key is REFUSED with the offered fingerprint and how to pin it; ssh_insecure skips it")
    void unknownHostKey() throws IOException, InterruptedException {
        start(SshDeviceSpec.builder().hostKeyType(HostKeyType.RSA));
        Path empty = Files.writeString(dir.resolve("empty_known_hosts"), "");

        FenceOutcome refused = run(apc().set("host_key_fingerprint", "").set("known_hosts", empty.toString())
                .set("plug", "3").build(), FenceAction.STATUS);
        FenceOutcome insecure = run(apc().set("host_key_fingerprint", "").set("ssh_insecure", "true")
                .set("plug", "3").build(), FenceAction.STATUS);

        assertThat(refused.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(refused.detail()).contains("is not known").contains("ssh-rsa " + device.hostKeyFingerprint()).contains("host_key_fingerprint=" + device.hostKeyFingerprint())
                .contains("ssh-keyscan -p " + device.port() + " 127.0.0.1");
        assertThat(insecure.status()).as("%s", insecure).isEqualTo(FenceStatus.SUCCEEDED);
        Path missing = dir.resolve("no-such-file");
        FenceOutcome noFile = run(apc().set("host_key_fingerprint", "").set("known_hosts", missing.toString())
                .set("plug", "3").build(), FenceAction.STATUS);
        assertThat(noFile.status()).as("a missing known_hosts file trusts nothing: %s", noFile)
                .isEqualTo(FenceStatus.REFUSED);
        assertThat(noFile.detail()).contains("the known_hosts file " + missing + " does not exist")
                .contains("host_key_fingerprint=" + device.hostKeyFingerprint());
    }

    @Test
    @DisplayName("ssh_insecure logs a warning on every use")
    void insecureWarnsEveryTime() throws InterruptedException {
        start(SshDeviceSpec.builder());
        AgentConfig config = apc().set("host_key_fingerprint", "").set("ssh_insecure", "true").set("plug", "1")
                .build();

        List<String> warnings = warnings(() -> {
            run(config, FenceAction.STATUS);
            run(config, FenceAction.STATUS);
        });

        assertThat(warnings).hasSize(2).allSatisfy(warning -> assertThat(warning)
                .contains("host key verification is OFF").contains("ssh_insecure=true"));
    }

    @Test
    @DisplayName("a device with only old algorithms fails by default, naming the way out; ssh_legacy_algorithms reaches it")
    void legacyAlgorithms() throws InterruptedException {
        start(SshDeviceSpec.builder().legacyAlgorithms(true));

        FenceOutcome modernOnly = run(apc().set("plug", "2").build(), FenceAction.OFF);
        List<FenceOutcome> legacy = new ArrayList<>();
        List<String> warnings = warnings(() -> legacy.add(run(apc().set("plug", "2")
                .set("ssh_legacy_algorithms", "true").build(), FenceAction.OFF)));

        assertThat(modernOnly.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(modernOnly.detail()).contains("offers none of the SSH algorithms remedy allows")
                .contains("ssh_legacy_algorithms=true");
        assertThat(legacy.get(0).status()).as("%s", legacy).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(warnings).singleElement().asString().contains("legacy SSH algorithms").contains("update its firmware");
        assertThat(device.device().port("2").power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("a server that never speaks SSH, or a device slow to show its prompt: TIMED_OUT by login_timeout")
    void loginTimeouts() throws IOException, InterruptedException {
        start(SshDeviceSpec.builder());
        device.faults().bannerDelay(Duration.ofSeconds(3));
        long start = System.nanoTime();
        FenceOutcome slowPrompt = run(apc().set("plug", "1").set("login_timeout", "400ms").build(), FenceAction.STATUS);
        assertThat(slowPrompt.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(slowPrompt.detail()).contains("the first prompt after login");

        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            FenceOutcome mute = run(apc().set("ipport", Integer.toString(silent.getLocalPort())).set("plug", "1")
                    .set("login_timeout", "400ms").build(), FenceAction.STATUS);
            assertThat(mute.status()).as("%s", mute).isEqualTo(FenceStatus.TIMED_OUT);
            assertThat(mute.detail()).contains("no SSH answer from admin@127.0.0.1");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    @DisplayName("key login with ed25519 (with a passphrase) and RSA keys; a wrong password fails without echoing it")
    void keysAndPasswords() throws Exception {
        java.security.KeyPair ed25519 = KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256);
        KeyPair rsa = KeyPair.genKeyPair(new JSch(), KeyPair.RSA, 3072);
        start(SshDeviceSpec.builder().authorizedKey(ed25519.getPublic()).authorizedKey(publicKey(rsa)));
        Path edFile = openSshKey(ed25519, "id_ed25519", "key-passphrase");
        Path rsaFile = privateKey(rsa, "id_rsa");

        FenceOutcome withEd = run(keyOnly().set("identity_file", edFile.toString())
                .secret("identity_passphrase", Secret.of("key-passphrase")).set("plug", "1").build(),
                FenceAction.OFF);
        FenceOutcome withRsa = run(keyOnly().set("identity_file", rsaFile.toString()).set("plug", "1").build(),
                FenceAction.STATUS);
        FenceOutcome wrongPassword = run(apc().secret("password", Secret.of("not-" + PASSWORD)).set("plug", "1")
                .build(), FenceAction.STATUS);

        assertThat(withEd.status()).as("%s", withEd).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(withRsa.power()).as("%s", withRsa).isEqualTo(PowerState.OFF);
        assertThat(wrongPassword.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(wrongPassword.detail()).contains("refused the login").doesNotContain(PASSWORD);
        assertThat(withEd.toString() + withRsa + wrongPassword).doesNotContain("key-passphrase");
    }

    @Test
    @DisplayName("Cisco IOS fabric fencing: OFF shuts the interface in config mode, ON re-enables it; no REBOOT")
    void ciscoIos() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).ports(48));
        AgentConfig config = config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/5")
                .build();

        FenceOutcome off = run(config, FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.OFF);
        assertThat(device.commandLog()).containsSubsequence("terminal length 0", "configure terminal",
                "interface GigabitEthernet1/0/5", "shutdown", "end");

        assertThat(run(config, FenceAction.REBOOT).status()).isEqualTo(FenceStatus.UNSUPPORTED);
        assertThat(run(config, FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.ON);
        assertThat(run(config, FenceAction.LIST).plugs()).hasSize(48);
    }

    @Test
    @DisplayName("Cisco IOS: an enabled interface that shows inactive, sfpAbsent or suspended reads ON, and OFF shuts it")
    void ciscoOtherStatusWords() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS));
        for (String word : List.of("inactive", "sfpAbsent", "suspended")) {
            device.device().linkStatus("GigabitEthernet1/0/3", word);
            AgentConfig config = config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/3")
                    .build();

            FenceOutcome status = run(config, FenceAction.STATUS);
            assertThat(status.status()).as("%s: %s", word, status).isEqualTo(FenceStatus.SUCCEEDED);
            assertThat(status.power()).as(word).isEqualTo(PowerState.ON);
            assertThat(run(config, FenceAction.LIST).plugs()).as(word)
                    .contains(new Plug("Gi1/0/3", "node-3", PowerState.ON));
            assertThat(run(config, FenceAction.OFF).status()).as(word).isEqualTo(FenceStatus.SUCCEEDED);
            assertThat(run(config, FenceAction.ON).status()).as(word).isEqualTo(FenceStatus.SUCCEEDED);
        }
    }

    @Test
    @DisplayName("Cisco IOS: a status word the profile does not know fails, naming the word, never guessed")
    void ciscoUnknownStatusWord() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS));
        device.device().linkStatus("GigabitEthernet1/0/3", "faulty");

        FenceOutcome status = run(config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/3")
                .build(), FenceAction.STATUS);

        assertThat(status.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(status.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(status.detail()).contains("is not a state profile cisco-ios knows", "faulty",
                "add the device's word to status.on or status.off");
    }

    @Test
    @DisplayName("an interface the switch does not have fails with its '% Invalid input' reply")
    void ciscoUnknownInterface() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS));

        FenceOutcome off = run(config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet9/0/1")
                .build(), FenceAction.OFF);

        assertThat(off.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("% Invalid input detected");
    }

    @Test
    @DisplayName("Cisco IOS logging in at user exec (switch>): 'enable' with enable_password, then OFF and ON as usual")
    void ciscoEnable() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).enableSecret(ENABLE_SECRET));
        AgentConfig config = config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/5")
                .secret("enable_password", Secret.of(ENABLE_SECRET)).build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.OFF);
        assertThat(device.commandLog()).containsSubsequence("enable", "terminal length 0", "configure terminal",
                "interface GigabitEthernet1/0/5", "shutdown", "end", "write memory").doesNotContain(ENABLE_SECRET);
        assertThat(off.toString()).doesNotContain(ENABLE_SECRET);
        assertThat(run(config, FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("Cisco IOS at user exec, a wrong enable_password: FAILED, naming enable_password, never the secret")
    void ciscoEnableWrongSecret() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).enableSecret(ENABLE_SECRET));
        String wrong = "not-the-enable-secret";

        FenceOutcome off = run(config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/5")
                .secret("enable_password", Secret.of(wrong)).build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(off.detail()).contains("refused enable_password", "check enable_password").doesNotContain(wrong);
        assertThat(off.toString()).doesNotContain(wrong);
        assertThat(off.cause()).get().satisfies(cause -> assertThat(cause).hasMessageNotContaining(wrong));
        assertThat(device.device().port("GigabitEthernet1/0/5").history()).isEmpty();
        assertThat(device.commandLog()).doesNotContain("configure terminal");
    }

    @Test
    @DisplayName("Cisco IOS at user exec without enable_password: FAILED, saying the device needs enable_password")
    void ciscoEnableMissingSecret() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).enableSecret(ENABLE_SECRET));

        FenceOutcome off = run(config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/5")
                .build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("logged in at the unprivileged prompt 'remedy-sw1>'", "give enable_password");
        assertThat(device.device().port("GigabitEthernet1/0/5").history()).isEmpty();
        assertThat(device.commandLog()).doesNotContain("enable", "configure terminal");
    }

    @Test
    @DisplayName("Cisco IOS whose 'write memory' asks [confirm]: a bare Enter answers it, so the shutdown is saved")
    void ciscoConfirmWithBareEnter() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).confirmations(true));
        AgentConfig config = config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/5")
                .build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        device.device().reload();
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).as("saved").isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("Brocade FOS: a persistent disable isolates the port, read back from portshow's flags; ON re-enables")
    void brocade() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS));
        AgentConfig config = config(new SshFabricAgentProvider(), "brocade-fos").set("plug", "6").build();

        assertThat(run(config, FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("6").power()).isEqualTo(PowerState.OFF);
        assertThat(run(config, FenceAction.STATUS).power()).isEqualTo(PowerState.OFF);
        assertThat(run(config, FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.commandLog()).contains("portcfgpersistentdisable 6", "portcfgpersistentenable 6");
    }

    @Test
    @DisplayName("Brocade FOS: a director in a Virtual Fabric (prompt sw:FID128:admin>, ports slot/port) works as is")
    void brocadeDirectorInVirtualFabric() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS).ports(32).portsPerSlot(16).virtualFabric(128));
        AgentConfig config = config(new SshFabricAgentProvider(), "brocade-fos").set("plug", "2/5").build();

        FenceOutcome off = run(config, FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(device.device().port("2/5").power()).isEqualTo(PowerState.OFF);
        assertThat(device.device().port("1/5").power()).isEqualTo(PowerState.ON);
        assertThat(run(config, FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
    }

    @Test
    @DisplayName("Brocade FOS: the isolation survives a switch reload (persistent disable), and so does ON")
    void brocadeSurvivesReload() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.BROCADE_FOS));
        AgentConfig config = config(new SshFabricAgentProvider(), "brocade-fos").set("plug", "6").build();

        assertThat(run(config, FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        device.device().reload();
        assertThat(device.device().port("6").power()).isEqualTo(PowerState.OFF);
        assertThat(run(config, FenceAction.STATUS).power()).isEqualTo(PowerState.OFF);

        assertThat(run(config, FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        device.device().reload();
        assertThat(device.device().port("6").power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("Cisco IOS: the shutdown is saved (write memory), so the isolation survives a switch reload")
    void ciscoSurvivesReload() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS));
        AgentConfig config = config(new SshFabricAgentProvider(), "cisco-ios").set("plug", "GigabitEthernet1/0/5")
                .build();

        assertThat(run(config, FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        device.device().reload();
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.OFF);

        assertThat(run(config, FenceAction.ON).status()).isEqualTo(FenceStatus.SUCCEEDED);
        device.device().reload();
        assertThat(device.device().port("GigabitEthernet1/0/5").power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("soft fencing, node agent: REBOOT restarts kubelet and reads it active again; OFF is unsupported")
    void nodeAgentRestart() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST).powerDelay(Duration.ofMillis(200)));
        AgentConfig config = config(new SshHostAgentProvider(), "linux-node-agent").build();

        FenceOutcome reboot = run(config, FenceAction.REBOOT);

        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.detail()).contains("'systemctl is-active kubelet' reads active").contains("(confirmed)");
        assertThat(device.device().kubeletRestarts()).isEqualTo(1);
        assertThat(run(config, FenceAction.OFF).status()).isEqualTo(FenceStatus.UNSUPPORTED);
    }

    @Test
    @DisplayName("soft fencing by SysRq: the session drops, the host comes back, and the new boot id confirms it")
    void sysrqReboot() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST).rebootTime(Duration.ofMillis(300)));
        String bootBefore = device.device().bootId();

        FenceOutcome reboot = run(config(new SshHostAgentProvider(), "linux-sysrq").set("power_timeout", "5s")
                .build(), FenceAction.REBOOT);

        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.power()).isEqualTo(PowerState.ON);
        assertThat(reboot.detail()).contains("boot id " + bootBefore + " became " + device.device().bootId());
        assertThat(device.device().reboots()).isEqualTo(1);
        assertThat(device.commandLog()).containsSubsequence("cat /proc/sys/kernel/random/boot_id",
                "echo 1 > /proc/sys/kernel/sysrq", "echo b > /proc/sysrq-trigger", "cat /proc/sys/kernel/random/boot_id");
    }

    @Test
    @DisplayName("a host that does not come back within power_timeout is a failure, never a success")
    void sysrqHostStaysDown() throws InterruptedException {
        start(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST).rebootTime(Duration.ofSeconds(30)));

        FenceOutcome reboot = run(config(new SshHostAgentProvider(), "linux-sysrq").set("power_timeout", "600ms")
                .set("login_timeout", "300ms").build(), FenceAction.REBOOT);

        assertThat(reboot.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(reboot.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(reboot.detail()).contains("did not come back with a new boot id").contains("power_timeout");
    }

    /** Something that runs agents. */
    private interface Actions {
        void run() throws InterruptedException;
    }

    /** The WARNING messages the SSH agents log while {@code actions} run. */
    private static List<String> warnings(Actions actions) throws InterruptedException {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(SshRun.class.getName());
        logger.addHandler(capture);
        try {
            actions.run();
        } finally {
            logger.removeHandler(capture);
        }
        return warnings;
    }

    /** The apc configuration without a password: the key must do. */
    private AgentConfig.Builder keyOnly() {
        return new SshFenceAgentProvider().configure().set("ip", device.host())
                .set("ipport", Integer.toString(device.port())).set("username", "admin").set("profile", "apc")
                .set("host_key_fingerprint", device.hostKeyFingerprint()).set("poll_interval", "20ms");
    }

    private void awaitNoSessions() throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (device.activeSessions() > 0 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(device.activeSessions()).as("sessions left open").isZero();
    }

    /** jsch writes RSA keys (not ed25519 ones) as PEM. */
    private Path privateKey(KeyPair pair, String name) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        pair.writePrivateKey(out);
        return Files.write(dir.resolve(name), out.toByteArray());
    }

    /** sshd writes any key in OpenSSH's own format, encrypted with {@code passphrase}, as ssh-keygen does. */
    private Path openSshKey(java.security.KeyPair pair, String name, String passphrase)
            throws IOException, GeneralSecurityException {
        OpenSSHKeyEncryptionContext encryption = new OpenSSHKeyEncryptionContext();
        encryption.setPassword(passphrase);
        encryption.setCipherName("AES");
        encryption.setCipherMode("CTR");
        encryption.setCipherType("256");
        try (OutputStream out = Files.newOutputStream(dir.resolve(name))) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, "test", encryption, out);
        }
        return dir.resolve(name);
    }

    private static PublicKey publicKey(KeyPair pair) throws IOException, GeneralSecurityException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        pair.writePublicKey((OutputStream) out, "test");
        return PublicKeyEntry.parsePublicKeyEntry(out.toString(StandardCharsets.US_ASCII).strip())
                .resolvePublicKey(null, Map.of(), null);
    }
}
