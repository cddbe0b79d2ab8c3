package dev.remedy.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remedy.core.flow.Attempt;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Records that remedy 0.1 wrote (format 1) still load. The fixtures were written by the JSON store of the version
 * before the flow's types changed ({@code Operation} sealed, {@code Attempt} results as {@code FenceStatus}, levels
 * as {@code OptionalInt}), one file per stored shape: every stage, agent and cluster operations of every action,
 * every kind of confirmation, paused, gave up, released, and attempts of every result.
 */
class PreviousFormatRecordsTest {

    private static final String FIXTURES = "format-1";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<String> fixtures() {
        try {
            URL url = PreviousFormatRecordsTest.class.getResource(FIXTURES);
            try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".json")).sorted().toList()
                        .stream();
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list the fixtures", e);
        }
    }

    @Test
    @DisplayName("the fixtures cover every stage, every operation, every confirmation kind and every attempt result")
    void fixturesCoverEveryShape() {
        List<JsonNode> all = fixtures().map(PreviousFormatRecordsTest::json).toList();
        assertThat(all).extracting(f -> f.get("stage").asText()).containsAll(List.of("hold", "isolate_cluster",
                "isolate_agents", "race_delay", "power_off", "confirm_off", "release", "lift_out_of_service",
                "power_on", "unfence", "await_ready", "recover_agents", "recover_cluster", "finished", "failed"));
        assertThat(all).extracting(f -> f.path("inFlight").path("action").asText(""))
                .contains("off", "status", "on", "reboot");
        assertThat(all).extracting(f -> f.path("inFlight").path("cluster").asText(""))
                .contains("isolate", "release_workloads", "lift_out_of_service", "recover");
        assertThat(all).extracting(f -> f.path("confirmation").path("kind").asText(""))
                .contains("STATUS_READ_OFF", "REBOOTED_AFTER_DECISION", "MANUAL");
        assertThat(all).flatExtracting(f -> f.get("attempts").findValuesAsText("result"))
                .contains("SUCCEEDED", "FAILED", "TIMED_OUT");
        assertThat(all).anySatisfy(f -> assertThat(f.get("gaveUp").asBoolean()).isTrue());
        assertThat(all).anySatisfy(f -> assertThat(f.get("pausedAt").isNull()).isFalse());
        assertThat(all).anySatisfy(f -> assertThat(f.get("isolationLevel").asInt()).isEqualTo(-1));
        assertThat(all).anySatisfy(f -> assertThat(f.get("powerLevel").asInt()).isEqualTo(1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    @DisplayName("a record of the previous format loads with every field as written")
    void loads(String fixture) throws IOException {
        JsonNode file = json(fixture);
        JsonFileStateStore store = storeWith(fixture);

        NodeFence record = loaded(store, file);

        assertThat(store.problems()).isEmpty();
        assertThat(record.stage().code()).isEqualTo(file.get("stage").asText());
        assertThat(record.isolationLevel().orElse(-1)).isEqualTo(file.get("isolationLevel").asInt());
        assertThat(record.powerLevel().orElse(-1)).isEqualTo(file.get("powerLevel").asInt());
        assertThat(record.confirmation().map(c -> c.kind().name()).orElse(""))
                .isEqualTo(file.path("confirmation").path("kind").asText(""));
        assertThat(record.attempts()).extracting(a -> a.result().name())
                .containsExactlyElementsOf(file.get("attempts").findValuesAsText("result"));
        JsonNode inFlight = file.get("inFlight");
        if (inFlight.isNull()) {
            assertThat(record.inFlight()).isEmpty();
        } else {
            Operation op = record.inFlight().orElseThrow();
            assertThat(op.id()).isEqualTo(inFlight.get("id").asText());
            assertThat(op).isInstanceOf(inFlight.get("action").isNull() ? Operation.Cluster.class
                    : Operation.Agent.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    @DisplayName("a loaded record of the previous format is saved again as the same document, one version up")
    void savesTheSameDocument(String fixture) throws IOException {
        JsonNode file = json(fixture);
        JsonFileStateStore store = storeWith(fixture);

        store.save(loaded(store, file));

        ObjectNode expected = file.deepCopy();
        expected.put("version", file.get("version").asInt() + 1);
        assertThat(JSON.readTree(Files.readAllBytes(recordFile()))).isEqualTo(expected);
    }

    @Test
    @DisplayName("attempt results are read as fence statuses")
    void attemptResults() throws IOException {
        String fixture = fixtures().filter(f -> f.contains("timed_out")).findFirst().orElseThrow();
        NodeFence record = loaded(storeWith(fixture), json(fixture));

        assertThat(record.attempts()).extracting(Attempt::result).extracting(Enum::name).contains("TIMED_OUT");
    }

    /** The record of the node named in {@code file}, as {@code store} loads it. */
    private static NodeFence loaded(JsonFileStateStore store, JsonNode file) {
        return store.load(file.get("node").asText()).orElseThrow();
    }

    /** A store whose directory holds the fixture under the file name the store gives its node. */
    private JsonFileStateStore storeWith(String fixture) throws IOException {
        try (InputStream in = PreviousFormatRecordsTest.class.getResourceAsStream(FIXTURES + "/" + fixture)) {
            Files.copy(in, dir.resolve(RecordFileNames.of(json(fixture).get("node").asText())));
        }
        return new JsonFileStateStore(dir);
    }

    private Path recordFile() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".json")).findFirst().orElseThrow();
        }
    }

    private static JsonNode json(String fixture) {
        try (InputStream in = PreviousFormatRecordsTest.class.getResourceAsStream(FIXTURES + "/" + fixture)) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
