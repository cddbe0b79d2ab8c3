package dev.remedy.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.conformance.FenceRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One store per directory, and records that survive a torn write or corruption by falling back or being named. */
@DisplayName("JsonFileStateStore recovery")
class JsonFileStateStoreRecoveryTest {

    @TempDir
    Path dir;

    private final FakeTimeSource time = new FakeTimeSource();

    @Test
    @DisplayName("a second store on a directory in use fails to open, naming the holder; after close it opens")
    void oneStorePerDirectory() {
        JsonFileStateStore first = new JsonFileStateStore(dir, time);
        first.save(FenceRecords.minimal("worker-a"));

        assertThatThrownBy(() -> new JsonFileStateStore(dir, time))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("in use by another engine")
                .hasMessageContaining("pid " + ProcessHandle.current().pid())
                .hasMessageContaining(dir.toString());
        assertThat(first.load("worker-a")).isPresent();

        first.close();
        try (JsonFileStateStore second = new JsonFileStateStore(dir, time)) {
            assertThat(second.load("worker-a")).isPresent();
        }
        assertThatThrownBy(() -> first.load("worker-a")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    @DisplayName("a torn latest write falls back to the previous version of the record, which can be saved over")
    void tornWriteFallsBack() throws IOException {
        NodeFence v2;
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            NodeFence v1 = store.save(FenceRecords.minimal("worker-a"));
            v2 = store.save(FenceRecords.withReason(v1, "second"));
        }
        Path latest = dir.resolve("worker-a.json");
        String text = Files.readString(latest);
        Files.writeString(latest, text.substring(0, text.length() / 2));

        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            NodeFence back = store.load("worker-a").orElseThrow();
            assertThat(back.version()).isEqualTo(v2.version() - 1);
            assertThat(back.reason()).isNotEqualTo("second");
            assertThat(store.problems()).singleElement().asString().contains("worker-a.json", "quarantine");
            assertThat(store.lostRecords()).isEmpty();
            assertThat(store.save(FenceRecords.withReason(back, "third")).version()).isEqualTo(v2.version());
            assertThat(store.load("worker-a").orElseThrow().reason()).isEqualTo("third");
        }
    }

    @Test
    @DisplayName("a crash between the two renames of a save leaves the previous version, which is loaded")
    void crashBetweenRenames() throws IOException {
        NodeFence v1;
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            v1 = store.save(FenceRecords.minimal("worker-a"));
            store.save(FenceRecords.withReason(v1, "second"));
        }
        Files.move(dir.resolve("worker-a.json"), dir.resolve("worker-a.json.prev"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            assertThat(store.loadAll()).extracting(NodeFence::reason).containsExactly("second");
            assertThat(store.problems()).isEmpty();
        }
    }

    @Test
    @DisplayName("a record with no good version is named in lostRecords, found by its name or, when hashed, its "
            + "content; saving the node clears it")
    void lostRecords() throws IOException {
        String longName = "rack-7-".repeat(40) + "worker";
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            store.save(FenceRecords.minimal("worker-a"));
            store.save(FenceRecords.minimal(longName));
        }
        Files.writeString(dir.resolve("worker-a.json"), "{ not json");
        Path hashed = dir.resolve(RecordFileNames.of(longName));
        Files.writeString(hashed, Files.readString(hashed).replace("\"stage\"", "\"stag"));

        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            assertThat(store.loadAll()).isEmpty();
            assertThat(store.lostRecords()).containsOnlyKeys("worker-a", longName);
            assertThat(store.lostRecords().get("worker-a")).contains("corrupt", "no earlier version");
            store.save(FenceRecords.minimal("worker-a"));
            assertThat(store.lostRecords()).containsOnlyKeys(longName);
        }
    }

    @Test
    @DisplayName("delete removes the previous version too: a deleted record never comes back")
    void deleteRemovesPrevious() {
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            NodeFence v1 = store.save(FenceRecords.minimal("worker-a"));
            store.save(FenceRecords.withReason(v1, "second"));
            store.delete("worker-a");
            assertThat(dir.resolve("worker-a.json.prev")).doesNotExist();
            assertThat(store.load("worker-a")).isEmpty();
        }
    }

    @Test
    @DisplayName("inspect reads a directory in use without moving anything, and names the engine holding it")
    void inspectChangesNothing() throws IOException {
        JsonFileStateStore store = new JsonFileStateStore(dir, time);
        store.save(FenceRecords.minimal("worker-a"));
        store.save(FenceRecords.minimal("worker-b"));
        Files.writeString(dir.resolve("worker-b.json"), "{ not json");

        StateDirectoryReport report = JsonFileStateStore.inspect(dir);
        assertThat(report.records()).extracting(NodeFence::node).containsExactly("worker-a");
        assertThat(report.problems()).singleElement().asString().contains("worker-b.json", "invalid JSON");
        assertThat(report.lost()).containsOnlyKeys("worker-b");
        assertThat(report.holder()).hasValueSatisfying(h -> assertThat(h).contains("pid "));
        assertThat(dir.resolve("worker-b.json")).hasContent("{ not json");
        assertThat(dir.resolve(JsonFileStateStore.QUARANTINE_DIRECTORY)).doesNotExist();

        store.close();
        assertThat(JsonFileStateStore.inspect(dir).holder()).isEmpty();
        assertThatThrownBy(() -> JsonFileStateStore.inspect(dir.resolve("missing")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing");
    }
}
