package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.JsonFileStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code remedy state DIR} shows records and what needs an admin, without touching a directory in use. */
class StateCommandTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    @DisplayName("shows every record, the engine holding the directory, and exit 0 when nothing needs an admin")
    void cleanDirectory() {
        try (JsonFileStateStore store = new JsonFileStateStore(dir)) {
            store.save(NodeFence.decided("worker-1", T0, T0.plusSeconds(30), "Ready=Unknown for 5m"));
            CliRunner.Result result = new CliRunner().run("state", dir.toString());

            assertThat(result.exitCode()).as(result.toString()).isZero();
            assertThat(result.outLines().get(0)).contains(dir.toString(), "in use by pid "
                    + ProcessHandle.current().pid());
            assertThat(result.out()).contains("worker-1", "new", "hold", "Ready=Unknown for 5m");
        }
    }

    @Test
    @DisplayName("a node held for an admin and a corrupt record are shown, changed nothing, and exit 1")
    void needsAnAdmin() throws IOException {
        try (JsonFileStateStore store = new JsonFileStateStore(dir)) {
            store.save(NodeFence.heldForAdmin("worker-1", T0, "held for an admin: its record was lost"));
            store.save(NodeFence.decided("worker-2", T0, T0.plusSeconds(30), "NotReady"));
        }
        Files.writeString(dir.resolve("worker-2.json"), "{\"format\": 1, \"node\": \"worker-2\"");

        CliRunner.Result result = new CliRunner().run("state", dir.toString());

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(result.out()).contains("no engine holds it now", "NEEDS AN ADMIN: held for an admin",
                "records lost", "worker-2: its record", "corrupt files", "worker-2.json");
        assertThat(dir.resolve("worker-2.json")).exists();
        assertThat(dir.resolve(JsonFileStateStore.QUARANTINE_DIRECTORY)).doesNotExist();
    }

    @Test
    @DisplayName("a path that is not a directory is bad input, named, exit 3")
    void notADirectory() {
        CliRunner.Result result = new CliRunner().run("state", dir.resolve("nowhere").toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("nowhere", "not a directory");
    }
}
