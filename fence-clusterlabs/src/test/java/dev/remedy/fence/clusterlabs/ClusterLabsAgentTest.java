package dev.remedy.fence.clusterlabs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ClusterLabs agent run by remedy: the protocol, the exit codes, the read-back, the bounds and the secrets. */
@DisplayName("a ClusterLabs agent run as a remedy agent")
class ClusterLabsAgentTest {

    private static final String PASSWORD = "fake-agent-password";
    private static final Duration BUDGET = Duration.ofSeconds(20);

    @TempDir
    Path agents;

    private FakeAgent fake;
    private ClusterLabsFenceAgentProvider provider;
    private final List<String> progress = new ArrayList<>();

    @BeforeEach
    void install() {
        fake = FakeAgent.install(agents, "fence_fake");
        provider = new ClusterLabsFenceAgentProvider(agents).specialise(Map.of("agent", "fence_fake"));
    }

    private AgentConfig.Builder config() {
        return provider.configure().set("agent", "fence_fake").set("ip", "10.0.0.7").set("username", "admin")
                .secret("password", Secret.of(PASSWORD));
    }

    private FenceOutcome run(FenceAction action) throws InterruptedException {
        return run(config().build(), action, BUDGET);
    }

    private FenceOutcome run(AgentConfig config, FenceAction action, Duration budget) throws InterruptedException {
        try (FenceAgent agent = provider.create(config)) {
            return agent.execute(FenceRequest.of(action), FenceContext.start(TimeSource.system(), budget,
                    progress::add));
        }
    }

    @Test
    @DisplayName("STATUS maps exit code 0 to ON, 2 to OFF and 1 to a failure with the agent's error line")
    void status() throws InterruptedException {
        assertThat(run(FenceAction.STATUS)).satisfies(o -> {
            assertThat(o.status()).isEqualTo(FenceStatus.SUCCEEDED);
            assertThat(o.power()).isEqualTo(PowerState.ON);
            assertThat(o.attempts()).isEqualTo(1);
        });
        fake.power(PowerState.OFF);
        assertThat(run(FenceAction.STATUS).power()).isEqualTo(PowerState.OFF);
        fake.control("status.exit=1");
        assertThat(run(FenceAction.STATUS)).satisfies(o -> {
            assertThat(o.status()).isEqualTo(FenceStatus.FAILED);
            assertThat(o.power()).isEqualTo(PowerState.UNKNOWN);
            assertThat(o.detail()).contains("fence_fake action=status failed with exit code 1",
                    "ERROR: Failed: told to exit with 1");
        });
    }

    @Test
    @DisplayName("OFF succeeds once remedy's own STATUS run reads OFF")
    void offConfirmed() throws InterruptedException {
        FenceOutcome off = run(FenceAction.OFF);

        assertThat(off.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(off.attempts()).isEqualTo(2);
        assertThat(fake.actions()).containsExactly("metadata", "off", "status");
        assertThat(fake.power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("an OFF the agent reports done but STATUS never reads is not a success")
    void offNotConfirmed() throws InterruptedException {
        fake.control("off.lie=1");

        FenceOutcome off = run(config().build(), FenceAction.OFF, Duration.ofSeconds(3));

        assertThat(off.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(off.power()).isEqualTo(PowerState.ON);
        assertThat(off.detail()).contains("reported off done but status still read ON");
        assertThat(fake.actions()).startsWith("metadata", "off", "status", "status");
        assertThat(progress).anyMatch(line -> line.contains("status reads ON; reading it again"));
    }

    @Test
    @DisplayName("an OFF the agent fails, or whose STATUS fails, is a failure")
    void offFails() throws InterruptedException, IOException {
        fake.control("off.exit=1");
        assertThat(run(FenceAction.OFF)).satisfies(o -> {
            assertThat(o.status()).isEqualTo(FenceStatus.FAILED);
            assertThat(o.detail()).contains("fence_fake action=off failed with exit code 1");
        });
        Files.delete(agents.resolve("fence_fake.control"));
        fake.control("status.exit=3");
        assertThat(run(FenceAction.OFF)).satisfies(o -> {
            assertThat(o.status()).isEqualTo(FenceStatus.FAILED);
            assertThat(o.power()).isEqualTo(PowerState.UNKNOWN);
            assertThat(o.detail()).contains("reported off done, but the status read that confirms it did not "
                    + "succeed", "exit code 3");
        });
    }

    @Test
    @DisplayName("REBOOT is OFF confirmed, then ON confirmed")
    void reboot() throws InterruptedException {
        FenceOutcome reboot = run(FenceAction.REBOOT);

        assertThat(reboot.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.power()).isEqualTo(PowerState.ON);
        assertThat(reboot.attempts()).isEqualTo(4);
        assertThat(fake.actions()).containsExactly("metadata", "off", "status", "on", "status");
        assertThat(fake.history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("LIST runs list-status and reads plug,alias,state lines; MONITOR succeeds on exit code 0")
    void listAndMonitor() throws InterruptedException {
        FenceOutcome list = run(FenceAction.LIST);

        assertThat(list.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(list.plugs()).containsExactly(new Plug("1", "web-1", PowerState.ON),
                new Plug("2", "db, primary", PowerState.OFF), new Plug("3", "", PowerState.UNKNOWN));
        assertThat(run(FenceAction.MONITOR).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(fake.actions()).containsExactly("metadata", "list-status", "monitor");
    }

    @Test
    @DisplayName("options reach the agent on standard input only: never a secret in its command line or environment")
    void secretsOnStandardInputOnly() throws InterruptedException {
        run(config().set("ssl", "false").set("lanplus", "true").set("plug", " padded ").build(), FenceAction.STATUS,
                BUDGET);

        FakeAgent.Run status = fake.runs().get(1);
        assertThat(status.options()).contains("\"password\": \"" + PASSWORD + "\"", "\"ip\": \"10.0.0.7\"",
                "\"lanplus\": \"1\"", "\"ssl\": \"0\"", "\"plug\": \" padded \"", "\"action\": \"status\"");
        assertThat(status.options()).as("a false boolean whose default is false is left out, defaults are not sent")
                .doesNotContain("method", "ipport");
        assertThat(status.cmdline()).doesNotContain(PASSWORD, "10.0.0.7", "status");
        assertThat(status.environ()).doesNotContain(PASSWORD);
        assertThat(status.environ()).contains("\"LANG=C\"", "\"LC_ALL=C\"", "\"PATH=");
        assertThat(Pattern.compile("\"([^\"=]+)=").matcher(status.environ()).results().map(m -> m.group(1)))
                .as("the variables the agent gets").isSubsetOf("PATH", "HOME", "TZ", "TMPDIR", "http_proxy",
                        "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "REQUESTS_CA_BUNDLE",
                        "SSL_CERT_FILE", "SSL_CERT_DIR", "LANG", "LC_ALL");
    }

    @Test
    @DisplayName("the agent runs as the leader of its own process group")
    void ownProcessGroup() throws InterruptedException {
        run(FenceAction.STATUS);

        FakeAgent.Run status = fake.runs().get(1);
        assertThat(status.pgid()).isEqualTo(status.pid()).isNotEqualTo(ProcessHandle.current().pid());
    }

    @Test
    @DisplayName("at the deadline a hung agent is TIMED_OUT and its whole process group is killed, children too")
    void hungAgentKilled() throws InterruptedException {
        fake.control("status.hang=1");

        FenceOutcome status = run(config().build(), FenceAction.STATUS, Duration.ofSeconds(3));

        assertThat(status.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(status.detail()).contains("remedy killed its process group");
        List<Long> pids = fake.hangingPids();
        assertThat(pids).as("the agent and its child 'sleep 1000'").hasSize(2);
        assertThat(pids).allSatisfy(pid -> assertThat(running(pid)).as("process %d", pid).isFalse());
    }

    @Test
    @DisplayName("the agent's standard error becomes progress lines with secrets masked; output is capped")
    void progressAndCaps() throws InterruptedException {
        fake.control("status.echo=1", "status.spam=1000000");

        FenceOutcome status = run(FenceAction.STATUS);

        assertThat(status.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(progress).anyMatch(line -> line.startsWith("fence_fake: ERROR: device says: I was given")
                && line.contains("('password', '******')"));
        assertThat(progress).noneMatch(line -> line.contains(PASSWORD));
        assertThat(progress).anyMatch(line -> line.contains("standard error passed 64 KiB: the rest is dropped"));
        assertThat(progress.stream().mapToInt(String::length).sum()).isLessThan(80 * 1024);
    }

    @Test
    @DisplayName("an interrupted thread starts no agent")
    void interrupted() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> run(FenceAction.OFF)).isInstanceOf(InterruptedException.class);
        assertThat(fake.actions()).containsExactly("metadata");
        assertThat(fake.power()).isEqualTo(PowerState.ON);
    }

    /** Whether {@code pid} is a live process: its /proc entry exists and it is not a zombie. */
    private static boolean running(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        for (int i = 0; i < 50; i++) {
            try {
                String text = Files.readString(stat);
                if (text.substring(text.lastIndexOf(')') + 2).startsWith("Z")) {
                    return false;
                }
                Thread.sleep(100);
            } catch (IOException gone) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        }
        return true;
    }
}
