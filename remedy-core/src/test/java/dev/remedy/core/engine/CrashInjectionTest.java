package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.spi.PowerState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the engine at every effect boundary of a full isolation → power management → recovery flow (at each save
 * of a record, and before each queued operation runs), restarts it from the JSON file store, and checks that the
 * flow completes exactly once: FINAL, the machine powered off once and on once, workloads released only after
 * confirmation.
 */
class CrashInjectionTest {

    private static final FlowSettings SETTINGS = FlowSettings.custom().hold(Duration.ofSeconds(10)).build();

    @TempDir
    Path dir;

    @Test
    @DisplayName("a crash at any save of a record is survived, and the flow completes exactly once")
    void crashAtEverySave() {
        int saves = run(world -> { }, dir.resolve("clean")).store.saves;
        assertThat(saves).as("saves of a full flow").isGreaterThanOrEqualTo(8);
        for (int k = 0; k < saves; k++) {
            int crashAt = k;
            EngineWorld world = run(w -> w.store.armed = crashAt, dir.resolve("save-" + k));
            assertThat(world.crashes).as("crash at save %d", k).isEqualTo(1);
            assertCompletedOnce(world, "crash at save " + k);
        }
    }

    @Test
    @DisplayName("losing the queued operations at any point is survived, and the flow completes exactly once")
    void crashBeforeEveryOperation() {
        int operations = run(world -> { }, dir.resolve("clean")).tasksRun;
        assertThat(operations).as("operations of a full flow").isGreaterThanOrEqualTo(6);
        for (int k = 0; k < operations; k++) {
            int crashAt = k;
            EngineWorld world = run(w -> w.dropQueueAtTask = crashAt, dir.resolve("task-" + k));
            assertThat(world.crashes).as("crash before operation %d", k).isEqualTo(1);
            assertCompletedOnce(world, "crash before operation " + k);
        }
    }

    private static void assertCompletedOnce(EngineWorld world, String scenario) {
        String node = world.nodes.get(0);
        NodeFence record = world.store.load(node).orElseThrow();
        assertThat(record.state()).as(scenario).isEqualTo(FenceState.FINAL);
        assertThat(record.gaveUp()).as(scenario).isFalse();
        assertThat(world.targets.get(node).history()).as(scenario).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(world.cluster.pods(node)).as(scenario).isZero();
        assertThat(world.violations).as(scenario).isEmpty();
    }

    /** One full flow of one node, crashing as {@code arm} sets up and restarting from the JSON store. */
    private static EngineWorld run(Consumer<EngineWorld> arm, Path storeDir) {
        EngineWorld world = new EngineWorld(1, new JsonFileStateStore(storeDir), SETTINGS);
        world.targets.values().forEach(t -> t.clearHistory());
        String node = world.nodes.get(0);
        arm.accept(world);
        for (int round = 0; round < 100; round++) {
            try {
                if (world.store.load(node).isEmpty()) {
                    world.engine.decide(node, "NotReady");
                }
                NodeFence record = world.store.load(node).orElseThrow();
                if (record.state() == FenceState.FINAL) {
                    break;
                }
                boolean on = world.targets.get(node).power() == PowerState.ON;
                if (record.state() == FenceState.DONE && on) {
                    world.engine.observe(node, new Observation.Readiness(true, Optional.empty()));
                }
                world.settle();
                world.time.advance(Duration.ofSeconds(5));
                world.engine.tick();
                world.settle();
            } catch (EngineWorld.Crash crash) {
                world.crash();
            }
        }
        world.checkState();
        return world;
    }

}
