package dev.remedy.fence.kube.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.fence.kube.store.AdminTarget.Reply;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.conformance.FenceRecords;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link AdminTarget#of(dev.remedy.core.engine.FenceEngine)}: the engine's refusals become refused replies. */
@DisplayName("AdminTarget of a FenceEngine")
class EngineAdminTargetTest {

    private FenceEngine engine;
    private AdminTarget target;

    @BeforeEach
    void setUp() {
        InMemoryStateStore store = new InMemoryStateStore();
        store.save(FenceRecords.minimal("worker-1"));
        engine = FenceEngine.builder().store(store).cluster(new SimulatedCluster()).agents(FenceAgentRegistry.of())
                .plans(node -> Optional.of(new NodePlan(node, "default", Map.of(
                        FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                        FenceStep.POWER_MANAGEMENT, StepPlan.none(Duration.ofSeconds(60)),
                        FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))))))
                .time(new FakeTimeSource()).executor(task -> { }).build();
        engine.start();
        target = AdminTarget.of(engine);
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    @Test
    @DisplayName("a pause the flow takes is accepted and recorded with the actor")
    void accepted() {
        Reply reply = target.pause("worker-1", "alice (annotation remedy.dev/pause)");

        assertThat(reply.refused()).as(reply.detail()).isFalse();
        assertThat(engine.record("worker-1")).hasValueSatisfying(r -> {
            assertThat(r.pausedAt()).isPresent();
            assertThat(r.reason()).contains("alice (annotation remedy.dev/pause)");
        });
    }

    @Test
    @DisplayName("a command the flow refuses, or for a node without a flow, is refused with the engine's reason")
    void refused() {
        assertThat(target.resume("worker-1", "bob")).satisfies(r -> {
            assertThat(r.refused()).isTrue();
            assertThat(r.detail()).contains("not paused");
        });
        assertThat(target.confirmOff("worker-9", "bob")).satisfies(r -> {
            assertThat(r.refused()).isTrue();
            assertThat(r.detail()).contains("no fence flow for node worker-9");
        });
        assertThat(target.pause("worker-1", "bob").refused()).isFalse();
    }
}
