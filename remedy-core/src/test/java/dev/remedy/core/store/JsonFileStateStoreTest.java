package dev.remedy.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.spi.TimeSource;
import dev.remedy.test.conformance.FenceRecords;
import dev.remedy.test.conformance.FenceStateStoreContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link JsonFileStateStore} meets the {@link FenceStateStore} contract, and keeps its files safe and readable. */
@DisplayName("JsonFileStateStore")
class JsonFileStateStoreTest extends FenceStateStoreContract {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @TempDir
    Path temp;

    private final FixedTime time = new FixedTime(Instant.parse("2026-03-01T10:15:30.250Z"));

    private Path dir;
    private JsonFileStateStore files;

    @Override
    protected FenceStateStore newStore() {
        dir = temp.resolve("state");
        files = new JsonFileStateStore(dir, time);
        return files;
    }

    /** Closes the store and opens another over the same directory, as a restarted engine does. */
    private JsonFileStateStore reopen() {
        files.close();
        files = new JsonFileStateStore(dir, time);
        return files;
    }

    private Path fileOf(String node) {
        return dir.resolve(RecordFileNames.of(node));
    }

    private List<String> namesIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    @DisplayName("records survive the store: a new store over the same directory loads them equal")
    void survivesReopen() {
        NodeFence a = store.save(FenceRecords.minimal("worker-a"));
        NodeFence b = store.save(FenceRecords.withAgentOperation("worker-b"));
        NodeFence c = store.save(FenceRecords.withClusterOperation("worker-c"));

        JsonFileStateStore again = reopen();

        assertThat(again.loadAll()).containsExactlyInAnyOrder(a, b, c);
        assertThat(again.load("worker-b")).contains(b);
        assertThat(again.save(FenceRecords.withReason(b, "next")).version()).isEqualTo(2);
    }

    @Test
    @DisplayName("a missing directory is created, parents included")
    void createsDirectory() {
        Path nested = temp.resolve("a/b/c");

        JsonFileStateStore created = new JsonFileStateStore(nested, time);

        assertThat(nested).isDirectory();
        assertThat(created.directory()).isEqualTo(nested.toAbsolutePath().normalize());
    }

    @Test
    @DisplayName("a path that is a file is refused with a message naming it and saying what to do")
    void refusesFile() throws IOException {
        Path file = Files.writeString(temp.resolve("not-a-dir"), "x");

        assertThatThrownBy(() -> new JsonFileStateStore(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toAbsolutePath().toString())
                .hasMessageContaining("not a directory");
        assertThat(file).hasContent("x");
    }

    @Test
    @DisplayName("the JSON is a versioned document with persisted codes, never ordinals, and ISO-8601 times")
    void jsonUsesCodes() throws IOException {
        store.save(FenceRecords.withAgentOperation("worker-a"));
        store.save(FenceRecords.withClusterOperation("worker-b"));

        String agent = Files.readString(fileOf("worker-a"));
        assertThat(agent)
                .contains("\"format\" : 1,")
                .contains("\"node\" : \"worker-a\"")
                .contains("\"stage\" : \"power_off\"")
                .contains("\"step\" : \"power_management\"")
                .contains("\"action\" : \"off\"")
                .contains("\"cluster\" : null")
                .contains("\"kind\" : \"STATUS_READ_OFF\"")
                .contains("\"decidedAt\" : \"2026-03-01T10:00:00Z\"")
                .contains("\"waitUntil\" : \"2026-03-01T10:00:41.123456789Z\"")
                .contains("\"budget\" : \"PT30S\"")
                .contains("\"version\" : 1")
                .doesNotContainPattern("\"(stage|step|action|cluster|kind)\" : \\d");
        String cluster = Files.readString(fileOf("worker-b"));
        assertThat(cluster)
                .contains("\"stage\" : \"release\"")
                .contains("\"action\" : null")
                .contains("\"cluster\" : \"release_workloads\"")
                .contains("\"kind\" : \"MANUAL\"")
                .contains("\"budget\" : \"PT1.5S\"");
    }

    @Test
    @DisplayName("node names with odd characters map to distinct files inside the directory and load back")
    void oddNames() throws IOException {
        String longName = "n".repeat(240);
        List<String> nodes = List.of("worker-1.example.com", "Worker-1.example.com", "a/b", "a\\b", "../escape",
                "..", ".", "", "_", "_2f", "a_2fb", "con", "con.example", "nul", "nöde", "nœud", "\uD800", "?",
                "with space", "tab\there", "new\nline", "~", "x:y", longName, longName + "x", longName + "y");
        List<NodeFence> saved = new ArrayList<>();
        for (String node : nodes) {
            saved.add(store.save(FenceRecords.minimal(node)));
        }

        List<String> files = namesIn(dir).stream().filter(f -> !f.equals(DirectoryLock.FILE_NAME)).toList();
        assertThat(files).hasSize(nodes.size()).allMatch(f -> f.matches("[a-z0-9._~-]+\\.json"))
                .allMatch(f -> f.length() <= 160);
        assertThat(namesIn(temp)).containsExactly("state");
        for (NodeFence record : saved) {
            assertThat(fileOf(record.node()).normalize().getParent()).isEqualTo(dir);
            assertThat(store.load(record.node())).contains(record);
        }
        assertThat(reopen().loadAll()).containsExactlyInAnyOrderElementsOf(saved);
        assertThat(store.problems()).isEmpty();
    }

    @Test
    @DisplayName("saves leave no temp files behind, and a stale save leaves the file byte for byte unchanged")
    void noTempFilesAndStaleUnchanged() throws IOException {
        NodeFence record = store.save(FenceRecords.minimal("worker-a"));
        record = store.save(FenceRecords.withReason(record, "again"));
        byte[] before = Files.readAllBytes(fileOf("worker-a"));

        assertThatThrownBy(() -> store.save(FenceRecords.minimal("worker-a").withVersion(1)))
                .isInstanceOf(StaleRecordException.class);

        assertThat(Files.readAllBytes(fileOf("worker-a"))).isEqualTo(before);
        assertThat(namesIn(dir)).containsExactly(DirectoryLock.FILE_NAME, "worker-a.json", "worker-a.json.prev");
        assertThat(record.version()).isEqualTo(2);
    }

    @Test
    @DisplayName("delete removes the node's file from disk")
    void deleteRemovesFile() {
        store.save(FenceRecords.minimal("worker-a"));

        store.delete("worker-a");

        assertThat(fileOf("worker-a")).doesNotExist();
    }

    @Test
    @DisplayName("temp files left by a crash are ignored, never reported as records, and removed")
    void leftoverTempFiles() throws IOException {
        NodeFence a = store.save(FenceRecords.minimal("worker-a"));
        Path beforeOpen = Files.writeString(dir.resolve(".worker-a.json.123456789.tmp"), "{\"format\" : 1, \"no");
        Path unknownNode = Files.writeString(dir.resolve(".worker-z.json.42.tmp"), "");

        JsonFileStateStore reopened = reopen();

        assertThat(beforeOpen).doesNotExist();
        assertThat(unknownNode).doesNotExist();
        Path afterOpen = Files.writeString(dir.resolve(".worker-a.json.987.tmp"), "garbage");
        assertThat(reopened.loadAll()).containsExactly(a);
        assertThat(afterOpen).doesNotExist();
        assertThat(reopened.load("worker-a")).contains(a);
        assertThat(reopened.problems()).isEmpty();
        assertThat(dir.resolve(JsonFileStateStore.QUARANTINE_DIRECTORY)).doesNotExist();
    }

    @Test
    @DisplayName("files that are neither records nor temp files are left alone and not reported")
    void unrelatedFiles() throws IOException {
        NodeFence a = store.save(FenceRecords.minimal("worker-a"));
        Path readme = Files.writeString(dir.resolve("README.txt"), "state of the fence engine");

        assertThat(store.loadAll()).containsExactly(a);
        assertThat(readme).hasContent("state of the fence engine");
        assertThat(store.problems()).isEmpty();
    }

    static Stream<Arguments> corruptions() {
        return Stream.of(
                Arguments.of("truncated JSON", cut(), "invalid JSON"),
                Arguments.of("an empty file", (UnaryOperator<String>) s -> "", "not a JSON object"),
                Arguments.of("a JSON array", (UnaryOperator<String>) s -> "[]", "not a JSON object"),
                Arguments.of("trailing content", (UnaryOperator<String>) s -> s + "{}", "invalid JSON"),
                Arguments.of("a duplicate key", (UnaryOperator<String>) s -> s.replaceFirst("\\{",
                        "{ \"stage\" : \"hold\","), "invalid JSON"),
                Arguments.of("a missing field", tree(n -> n.remove("reason")), "property 'reason'"),
                Arguments.of("an unknown field", tree(n -> n.put("escalation", "page")), "field \"escalation\""),
                Arguments.of("an unknown nested field", tree(n -> ((ObjectNode) n.withArray("attempts").get(1))
                        .put("exitCode", 3)), "field \"attempts[1].exitCode\""),
                Arguments.of("a reason that is not text", tree(n -> n.put("reason", 5)), "field \"reason\""),
                Arguments.of("an unknown stage code", tree(n -> n.put("stage", "power_of")), "unknown stage"),
                Arguments.of("a stage ordinal", tree(n -> n.put("stage", 4)), "field \"stage\""),
                Arguments.of("another format number", tree(n -> n.put("format", 2)), "format 2 is not supported"),
                Arguments.of("no format number", tree(n -> n.remove("format")), "no integer \"format\""),
                Arguments.of("a format number as text", tree(n -> n.put("format", "1")), "no integer \"format\""),
                Arguments.of("a name that does not match the file", tree(n -> n.put("node", "worker-b")),
                        "names node 'worker-b'"),
                Arguments.of("an invalid instant", tree(n -> n.put("decidedAt", "yesterday")), "yesterday"),
                Arguments.of("a null required field", tree(n -> n.putNull("stepDeadline")), "stepDeadline"),
                Arguments.of("a number as text", tree(n -> n.put("level", "1")), "field \"level\""),
                Arguments.of("a fractional number", tree(n -> n.put("retries", 1.5)), "field \"retries\""),
                Arguments.of("a null number", tree(n -> n.putNull("sequence")), "field \"sequence\""),
                Arguments.of("an unknown action code", tree(n -> inFlight(n).put("action", "OFF")),
                        "unknown fence action"),
                Arguments.of("both an agent and a cluster action",
                        tree(n -> inFlight(n).put("cluster", "recover")), "either an agent or a cluster"),
                Arguments.of("an unknown confirmation kind",
                        tree(n -> ((ObjectNode) n.get("confirmation")).put("kind", "status_read_off")), "confirmation kind"),
                Arguments.of("an invalid duration", tree(n -> inFlight(n).put("budget", "30s")), "30s"),
                Arguments.of("workloads released without confirmation", tree(n -> n.putNull("confirmation")),
                        "released without a confirmation"),
                Arguments.of("a negative counter", tree(n -> n.put("retries", -1)), "negative counter"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    @DisplayName("a corrupt file is quarantined with its content, reported and logged, never dropped; the other "
            + "records still load")
    void corruptFileIsQuarantined(String kind, UnaryOperator<String> corrupt, String reason) throws IOException {
        store.save(FenceRecords.withAgentOperation("worker-a"));
        NodeFence b = store.save(FenceRecords.minimal("worker-b"));
        String content = corrupt.apply(Files.readString(fileOf("worker-a")));
        Files.writeString(fileOf("worker-a"), content);

        JsonFileStateStore reopened = reopen();
        assertThat(reopened.loadAll()).containsExactly(b);

        Path quarantine = dir.resolve(JsonFileStateStore.QUARANTINE_DIRECTORY);
        Path moved = quarantine.resolve("worker-a.json.20260301T101530.250Z");
        assertThat(fileOf("worker-a")).doesNotExist();
        assertThat(namesIn(quarantine)).containsExactly(moved.getFileName().toString());
        assertThat(moved).hasContent(content);
        assertThat(reopened.corruptFiles()).singleElement().satisfies(found -> {
            assertThat(found.file()).isEqualTo(fileOf("worker-a"));
            assertThat(found.reason()).contains(reason);
            assertThat(found.quarantinedAs()).contains(moved);
            assertThat(found.detectedAt()).isEqualTo(time.instant());
        });
        assertThat(reopened.problems()).singleElement(STRING)
                .contains(fileOf("worker-a").toString(), reason, moved.toString());
        assertThat(reopened.load("worker-a")).isEmpty();
        assertThat(reopened.problems()).hasSize(1);
    }

    @Test
    @DisplayName("load of a corrupt node returns empty and reports it; the node can then start again at version 0")
    void loadOfCorruptNode() throws IOException {
        store.save(FenceRecords.minimal("worker-a"));
        Files.writeString(fileOf("worker-a"), "{ not json");

        assertThat(store.load("worker-a")).isEmpty();
        assertThat(store.problems()).singleElement(STRING)
                .contains("worker-a.json", "invalid JSON", "quarantine");
        assertThat(store.save(FenceRecords.minimal("worker-a")).version()).isEqualTo(1);
        assertThat(store.load("worker-a")).contains(FenceRecords.minimal("worker-a").withVersion(1));
    }

    @Test
    @DisplayName("a save over a corrupt file quarantines it instead of overwriting it, and is stale unless at version 0")
    void saveOverCorruptFile() throws IOException {
        NodeFence a = store.save(FenceRecords.minimal("worker-a"));
        Files.writeString(fileOf("worker-a"), "{ not json");

        assertThatThrownBy(() -> store.save(FenceRecords.withReason(a, "next")))
                .isInstanceOf(StaleRecordException.class)
                .hasMessageContaining("holds version 0");

        assertThat(fileOf("worker-a")).doesNotExist();
        assertThat(files.corruptFiles()).singleElement()
                .satisfies(found -> assertThat(found.quarantinedAs().orElseThrow()).hasContent("{ not json"));
    }

    @Test
    @DisplayName("two corrupt versions of one file quarantined at the same instant are both kept")
    void quarantineNamesDoNotCollide() throws IOException {
        store.save(FenceRecords.minimal("worker-a"));
        Files.writeString(fileOf("worker-a"), "first");
        assertThat(store.load("worker-a")).isEmpty();
        store.save(FenceRecords.minimal("worker-a"));
        Files.writeString(fileOf("worker-a"), "second");
        assertThat(store.load("worker-a")).isEmpty();

        Path quarantine = dir.resolve(JsonFileStateStore.QUARANTINE_DIRECTORY);
        assertThat(namesIn(quarantine))
                .containsExactly("worker-a.json.20260301T101530.250Z", "worker-a.json.20260301T101530.250Z-2");
        assertThat(quarantine.resolve("worker-a.json.20260301T101530.250Z")).hasContent("first");
        assertThat(quarantine.resolve("worker-a.json.20260301T101530.250Z-2")).hasContent("second");
        assertThat(store.problems()).hasSize(2);
    }

    @Test
    @DisplayName("a .json file whose name no node maps to is quarantined, not read as some other node")
    void foreignFileName() throws IOException {
        NodeFence a = store.save(FenceRecords.minimal("worker-a"));
        Files.copy(fileOf("worker-a"), dir.resolve("Worker-A.json"));

        assertThat(store.loadAll()).containsExactly(a);
        assertThat(files.corruptFiles()).singleElement()
                .satisfies(found -> assertThat(found.file().getFileName()).hasToString("Worker-A.json"));
    }

    private static UnaryOperator<String> cut() {
        return s -> s.substring(0, s.length() / 2);
    }

    private static ObjectNode inFlight(ObjectNode record) {
        return (ObjectNode) record.get("inFlight");
    }

    private static UnaryOperator<String> tree(Consumer<ObjectNode> change) {
        return s -> {
            try {
                ObjectNode node = (ObjectNode) MAPPER.readTree(s);
                change.accept(node);
                return MAPPER.writeValueAsString(node);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** A clock that stands still. */
    private static final class FixedTime implements TimeSource {
        private final Instant now;

        FixedTime(Instant now) {
            this.now = now;
        }

        @Override
        public long nanoTime() {
            return 0;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public void sleep(Duration duration) {
            // time stands still
        }
    }
}
