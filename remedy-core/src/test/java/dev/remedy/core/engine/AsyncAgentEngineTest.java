package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.engine.OperationTask;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The engine calls executeAsync: an agent with its own I/O frees the engine's thread while the device answers. */
class AsyncAgentEngineTest {

    /** An agent that answers only when the test completes its pending future. */
    private static final class PendingProvider implements FenceAgentProvider {
        final Deque<CompletableFuture<FenceOutcome>> pending = new ArrayDeque<>();
        final List<FenceAction> actions = new ArrayList<>();

        @Override
        public String type() {
            return "pending";
        }

        @Override
        public String description() {
            return "answers when the test says so";
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return List.of();
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.allOf(FenceAction.class);
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            return new FenceAgent() {
                @Override
                public FenceOutcome execute(FenceRequest request, FenceContext context) {
                    throw new AssertionError("the engine must call executeAsync, not execute");
                }

                @Override
                public CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
                        Executor executor) {
                    actions.add(request.action());
                    CompletableFuture<FenceOutcome> answer = new CompletableFuture<>();
                    pending.add(answer);
                    return answer;
                }
            };
        }
    }

    @Test
    @DisplayName("an asynchronous agent's answer comes back as a task of the same operation, then the flow goes on")
    void asyncAnswerIsAppliedAsTheSameOperation() {
        FakeTimeSource time = new FakeTimeSource();
        String node = "async-node";
        SimulatedCluster cluster = new SimulatedCluster().node(node, 2);
        InMemoryStateStore store = new InMemoryStateStore();
        PendingProvider provider = new PendingProvider();
        Deque<OperationTask> queue = new ArrayDeque<>();
        ResolvedMethod method = new ResolvedMethod("bmc", "pending", provider.configure().build());
        NodePlan plan = new NodePlan(node, "default", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(60), 1, List.of(List.of(method))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))));
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster)
                .agents(FenceAgentRegistry.of(provider)).plans(n -> Optional.of(plan))
                .settings(FlowSettings.ofDefaults())
                .time(time).executor(task -> queue.add((OperationTask) task)).build();
        engine.start();
        engine.decide(node, "NotReady");
        for (int i = 0; i < 10 && provider.pending.isEmpty(); i++) {
            time.advance(Duration.ofSeconds(10));
            engine.tick();
            while (!queue.isEmpty()) {
                queue.removeFirst().run();
            }
        }
        assertThat(provider.actions).as("the first agent call").containsExactly(FenceAction.OFF);
        String offOperation = engine.record(node).flatMap(NodeFence::inFlight).orElseThrow().id();
        assertThat(queue).as("the engine's thread is free while the BMC works").isEmpty();

        provider.pending.removeFirst().complete(FenceOutcome.succeeded(PowerState.OFF, "off"));
        assertThat(queue).singleElement().satisfies(task -> {
            assertThat(task.node()).isEqualTo(node);
            assertThat(task.operationId()).isEqualTo(offOperation);
        });
        queue.removeFirst().run();
        while (!queue.isEmpty()) {
            queue.removeFirst().run();
        }
        assertThat(engine.record(node).flatMap(NodeFence::inFlight).map(op -> op.id())).isNotEqualTo(
                Optional.of(offOperation));
        assertThat(provider.actions).as("the answer moved the flow on").hasSizeGreaterThan(1);
        engine.close();
    }
}
