package dev.remedy.fence.clusterlabs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.FenceContext;
import dev.remedy.spi.TimeSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the runner of an agent process")
class AgentRunnerTest {

    @TempDir
    Path dir;

    private Path script(String body) throws IOException {
        Path script = dir.resolve("fence_script");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private static FenceContext context(Duration budget) {
        return FenceContext.start(TimeSource.system(), budget);
    }

    @Test
    @DisplayName("without setsid no agent is started, and the error says what to install")
    void setsidMissing() throws IOException {
        AgentRunner runner = new AgentRunner(Optional.empty(), Optional.empty(), Map.of());
        Path script = script("touch " + dir.resolve("ran"));

        assertThatThrownBy(() -> runner.run(script, "", context(Duration.ofSeconds(5)), 1024, line -> { }))
                .isInstanceOf(IOException.class).hasMessageContaining("setsid (util-linux) is not installed");
        assertThat(dir.resolve("ran")).doesNotExist();
    }

    @Test
    @DisplayName("the agent reads its input, its output and exit code come back, its error lines arrive in order")
    void runs() throws Exception {
        AgentRunner runner = AgentRunner.system();
        List<String> lines = new ArrayList<>();

        AgentRunner.Result result = runner.run(script("read a; read b; echo \"got $a $b\"; echo one >&2; echo two >&2;"
                + " exit 7"), "x=1\ny=2\n", context(Duration.ofSeconds(10)), 1024, lines::add);

        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isEqualTo(7);
        assertThat(result.stdoutText()).isEqualTo("got x=1 y=2\n");
        assertThat(lines).containsExactly("one", "two");
        assertThat(result.stderr()).containsExactly("one", "two");
    }

    @Test
    @DisplayName("without kill, a hung agent and its child are still stopped at the deadline, one by one")
    void killMissing() throws Exception {
        AgentRunner runner = new AgentRunner(Optional.of(Path.of("/usr/bin/setsid")), Optional.empty(),
                AgentEnvironment.filter(System.getenv()));
        Path pids = dir.resolve("pids");

        AgentRunner.Result result = runner.run(script("sleep 1000 & echo $$ $! > " + pids + "; wait"), "",
                context(Duration.ofSeconds(2)), 1024, line -> { });

        assertThat(result.timedOut()).isTrue();
        assertThat(Files.readString(pids).trim().split(" ")).hasSize(2)
                .allSatisfy(pid -> assertThat(running(Long.parseLong(pid))).as("process %s", pid).isFalse());
    }

    @Test
    @DisplayName("all the output of an agent that exits at once is kept: the streams are not closed under the readers")
    void outputOfAnExitedAgent() throws Exception {
        AgentRunner runner = new AgentRunner(Optional.of(Path.of("/usr/bin/setsid")), Optional.empty(),
                AgentEnvironment.filter(System.getenv()));
        Path script = script("head -c 60000 /dev/zero | tr '\\0' x; yes yyyyyyyyy | head -n 3000 >&2");

        for (int i = 0; i < 20; i++) {
            AgentRunner.Result result = runner.run(script, "", context(Duration.ofSeconds(10)), 65536, line -> { });
            assertThat(result.stdout()).as("run %d", i).hasSize(60000);
            assertThat(result.stderr()).as("run %d", i).hasSize(3000);
        }
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
