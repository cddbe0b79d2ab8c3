package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("A daemon child process: ready when its log says so, stopped with every process it started")
class DaemonTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    @DisplayName("waits for its log, then stop ends it and the child it started, which SIGTERM to it alone would not")
    void stopsWithChildren() throws Exception {
        Path log = dir.resolve("log");
        Daemon daemon = Daemon.start("sh", List.of("/bin/sh", "-c",
                "trap '' TERM; sleep 300 & echo \"child $!\" >> " + log + "; echo ready >> " + log + "; wait"),
                dir, Map.of(), dir.resolve("out"), log);
        try {
            daemon.awaitLog(text -> text.contains("ready"), "say ready", WAIT);
            long child = Long.parseLong(daemon.log().lines().filter(line -> line.startsWith("child "))
                    .findFirst().orElseThrow().substring("child ".length()));
            assertThat(ProcessHandle.of(child).filter(ProcessHandle::isAlive)).isPresent();

            daemon.stop(Duration.ofMillis(200));

            assertThat(daemon.alive()).isFalse();
            assertThat(ProcessHandle.of(child).filter(ProcessHandle::isAlive)).isEmpty();
        } finally {
            daemon.stop(Duration.ZERO);
        }
    }

    @Test
    @DisplayName("a daemon that exits before it is ready is an error with its exit status and log")
    void exitsEarly() {
        Path log = dir.resolve("log");
        Daemon daemon = Daemon.start("sh", List.of("/bin/sh", "-c", "echo 'bad config' >> " + log + "; exit 3"), dir,
                Map.of(), dir.resolve("out"), log);
        assertThatThrownBy(() -> daemon.awaitLog(text -> text.contains("ready"), "say ready", WAIT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sh exited with status 3 before say ready").hasMessageContaining("bad config");
        assertThat(Files.exists(dir.resolve("out"))).isTrue();
    }
}
