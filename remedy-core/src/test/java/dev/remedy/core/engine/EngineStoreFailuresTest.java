package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.core.store.StaleRecordException;
import dev.remedy.core.store.StateStoreException;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the engine does when its store fails it: a record changed by someone else, a full disk, a record that
 * reads well in no version; and deadlines too far away to compute.
 */
class EngineStoreFailuresTest {

    private static final String NODE = "worker-7";

    private final FakeTimeSource time = new FakeTimeSource();
    private final FakePowerLab lab = new FakePowerLab();
    private final FakePowerTarget target = lab.create(NODE, time);
    private final SimulatedCluster cluster = new SimulatedCluster().node(NODE, 4);
    private final List<FenceEvent> events = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    @Test
    @DisplayName("an engine that meets a record another engine saved reloads it and decides again: one OFF, and "
            + "the stale write is not retried")
    void staleRecordIsReloaded() {
        FailingStore shared = new FailingStore(new InMemoryStateStore());
        FenceEngine first = engine(shared, Duration.ofSeconds(60));
        FenceEngine second = engine(shared, Duration.ofSeconds(60));
        first.decide(NODE, "NotReady");
        assertThat(second.decide(NODE, "NotReady as well")).hasValueSatisfying(r ->
                assertThat(r.version()).isEqualTo(shared.load(NODE).orElseThrow().version()));
        assertThat(events).filteredOn(FenceEvent.Refused.class::isInstance).singleElement()
                .satisfies(e -> assertThat(((FenceEvent.Refused) e).reason()).contains("already in a fence flow"));

        runToDone(first);
        int staleBefore = shared.staleSaves;
        for (int i = 0; i < 20; i++) {
            time.advance(Duration.ofSeconds(5));
            second.tick(); // its record is stale: it reloads once and goes on from what the first engine did
        }
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(shared.staleSaves - staleBefore).as("stale saves of the second engine").isLessThanOrEqualTo(1);
        assertThat(second.record(NODE)).isEqualTo(first.record(NODE));
    }

    @Test
    @DisplayName("a store that fails to save leaves the flow where it was, alerts once, tries again with backoff, "
            + "and the flow completes when saving works again")
    void failedSavesAreRetried() {
        FailingStore store = new FailingStore(new InMemoryStateStore());
        FenceEngine engine = engine(store, Duration.ofSeconds(60));
        engine.decide(NODE, "NotReady");
        time.advance(Duration.ofSeconds(31));
        store.failNext = 6;
        assertThatCode(engine::tick).doesNotThrowAnyException();
        NodeFence stuck = engine.record(NODE).orElseThrow();
        assertThat(stuck.stage()).isEqualTo(Stage.HOLD);
        assertThat(cluster.cordoned(NODE)).isFalse();
        assertThat(engine.unsavedNodes()).containsOnlyKeys(NODE);
        assertThat(engine.unsavedNodes().get(NODE)).contains("No space left on device", "1 try");

        engine.observe(NODE, new Observation.Readiness(false, Optional.empty()));
        for (int i = 0; i < 40 && store.failNext > 0; i++) {
            time.advance(Duration.ofSeconds(1));
            engine.tick();
        }
        assertThat(store.failNext).isZero();
        assertThat(store.failedSaves).isEqualTo(6);
        assertThat(events).filteredOn(FenceEvent.Alert.class::isInstance).singleElement()
                .satisfies(e -> assertThat(((FenceEvent.Alert) e).reason()).contains("cannot be saved",
                        "No space left on device"));
        assertThat(engine.history().alertsOf(NODE)).hasSize(1);

        runToDone(engine);
        assertThat(engine.unsavedNodes()).isEmpty();
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(engine.record(NODE).orElseThrow().state()).isEqualTo(FenceState.DONE);
    }

    @Test
    @DisplayName("a decision that cannot be saved is kept and saved when the store works again")
    void failedDecisionIsKept() {
        FailingStore store = new FailingStore(new InMemoryStateStore());
        FenceEngine engine = engine(store, Duration.ofSeconds(60));
        store.failNext = 1;
        assertThat(engine.decide(NODE, "NotReady")).isEmpty();
        assertThat(engine.unsavedNodes()).containsOnlyKeys(NODE);
        time.advance(Duration.ofSeconds(2));
        engine.tick();
        assertThat(engine.record(NODE)).hasValueSatisfying(r -> assertThat(r.reason()).contains("NotReady"));
        assertThat(engine.unsavedNodes()).isEmpty();
    }

    @Test
    @DisplayName("a record that reads well in no version holds its node for an admin, with an alert in the history")
    void lostRecordIsHeldForAdmin() throws IOException {
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            engine(store, Duration.ofSeconds(60)).decide(NODE, "NotReady");
        }
        Files.writeString(dir.resolve(NODE + ".json"), "{\"format\": 1, \"node\": \"worker-7\", \"sta");

        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            FenceEngine engine = engine(store, Duration.ofSeconds(60));
            NodeFence held = engine.record(NODE).orElseThrow();
            assertThat(held.state()).isEqualTo(FenceState.ERROR);
            assertThat(held.gaveUp()).isTrue();
            assertThat(held.reason()).contains("held for an admin", "corrupt", "clear the ERROR");
            assertThat(store.load(NODE)).contains(held);
            assertThat(engine.history().alertsOf(NODE)).singleElement()
                    .satisfies(a -> assertThat(a.reason()).contains("held for an admin"));

            engine.decide(NODE, "NotReady again");
            assertThat(events.get(events.size() - 1)).isInstanceOf(FenceEvent.Refused.class);
            assertThat(target.history()).isEmpty();
            engine.clearError(NODE, "admin");
            assertThat(engine.record(NODE).orElseThrow().state()).isEqualTo(FenceState.FINAL);
            assertThat(events).filteredOn(FenceEvent.Alert.class::isInstance).last()
                    .satisfies(a -> assertThat(((FenceEvent.Alert) a).reason()).contains("power it on by hand"));
        }
    }

    @Test
    @DisplayName("a torn latest record after a crash: the engine goes on from the previous version and the flow "
            + "completes once, with one OFF and no alert")
    void tornRecordFallsBack() throws IOException {
        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            FenceEngine engine = engine(store, Duration.ofSeconds(60));
            engine.decide(NODE, "NotReady");
            runToDone(engine);
        }
        Path latest = dir.resolve(NODE + ".json");
        byte[] bytes = Files.readAllBytes(latest);
        Files.write(latest, java.util.Arrays.copyOf(bytes, bytes.length / 3));

        try (JsonFileStateStore store = new JsonFileStateStore(dir, time)) {
            FenceEngine engine = engine(store, Duration.ofSeconds(60));
            assertThat(engine.record(NODE)).isPresent();
            runToDone(engine);
            engine.observe(NODE, new Observation.Readiness(true, Optional.of(time.instant())));
            assertThat(engine.record(NODE).orElseThrow().state()).isEqualTo(FenceState.FINAL);
            assertThat(store.corruptFiles()).hasSize(1);
        }
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(cluster.cordoned(NODE)).isFalse();
        assertThat(events).noneMatch(FenceEvent.Alert.class::isInstance);
    }

    @Test
    @DisplayName("a step timeout too long to add to a date (P999999999999D) means 'no deadline', not a dead thread")
    void hugeStepTimeoutSaturates() {
        FenceEngine engine = engine(new InMemoryStateStore(), Duration.ofDays(999_999_999_999L));
        assertThatCode(() -> engine.decide(NODE, "NotReady")).doesNotThrowAnyException();
        runToDone(engine);
        NodeFence record = engine.record(NODE).orElseThrow();
        assertThat(record.state()).isEqualTo(FenceState.DONE);
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(events).noneMatch(FenceEvent.Alert.class::isInstance);
    }

    private void runToDone(FenceEngine engine) {
        for (int i = 0; i < 40 && engine.record(NODE).orElseThrow().state() != FenceState.DONE; i++) {
            time.advance(Duration.ofSeconds(5));
            engine.tick();
        }
    }

    private FenceEngine engine(FenceStateStore store, Duration powerTimeout) {
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider(lab);
        ResolvedMethod bmc = new ResolvedMethod("bmc", "fake", fake.configure().set("plug", NODE)
                .secret("password", Secret.of("store-failure-test-password")).set("poll_interval", "1s").build());
        NodePlan plan = new NodePlan(NODE, "default", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(powerTimeout, 1, List.of(List.of(bmc))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))));
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster).agents(FenceAgentRegistry.of(fake))
                .plans(n -> n.equals(NODE) ? Optional.of(plan) : Optional.empty())
                .settings(FlowSettings.custom().hold(Duration.ofSeconds(30)).build())
                .time(time).executor(Runnable::run).listener(events::add).build();
        engine.start();
        return engine;
    }

    /** A store whose next saves fail as a full disk does, and that counts stale saves. */
    private static final class FailingStore extends ForwardingStore {
        int failNext;
        int failedSaves;
        int staleSaves;

        FailingStore(FenceStateStore backing) {
            super(backing);
        }

        @Override
        public NodeFence save(NodeFence record) {
            if (failNext > 0) {
                failNext--;
                failedSaves++;
                throw new StateStoreException("could not save the fence record of node '" + record.node()
                        + "': java.io.IOException: No space left on device");
            }
            try {
                return super.save(record);
            } catch (StaleRecordException e) {
                staleSaves++;
                throw e;
            }
        }
    }
}
