package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.ClusterAction;
import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The release of workloads ends by waiting for them to be released, whatever the strategy. */
class ReleaseAwaitsWorkloadsTest {

    private static final String NODE = "n1";

    private final SimulatedCluster simulated = new SimulatedCluster().node(NODE, 3);
    private final List<String> calls = new ArrayList<>();
    private RuntimeException awaitFailure;

    /** The simulated cluster, with the wait recorded in the same log and able to fail. */
    private final ClusterOperations cluster = new ClusterOperations() {
        @Override
        public void cordon(String node) {
            simulated.cordon(node);
        }

        @Override
        public void uncordon(String node) {
            simulated.uncordon(node);
        }

        @Override
        public void addTaint(String node, Taint taint) {
            simulated.addTaint(node, taint);
        }

        @Override
        public void removeTaint(String node, Taint taint) {
            simulated.removeTaint(node, taint);
        }

        @Override
        public void deletePods(String node) {
            simulated.deletePods(node);
        }

        @Override
        public void awaitWorkloadsReleased(String node) {
            calls.add("await " + node + " after " + simulated.log());
            if (awaitFailure != null) {
                throw awaitFailure;
            }
        }

        @Override
        public void deleteNode(String node) {
            simulated.deleteNode(node);
        }

        @Override
        public void restoreNode(String node) {
            simulated.restoreNode(node);
        }
    };

    private Observation.Completed release(ReleaseStrategy strategy) {
        return run(strategy, ClusterAction.RELEASE_WORKLOADS);
    }

    private Observation.Completed run(ReleaseStrategy strategy, ClusterAction action) {
        OperationRunner runner = new OperationRunner(cluster, FenceAgentRegistry.of(), node -> Optional.empty(),
                new FakeTimeSource(), strategy, null, EffectGuard.ALLOW_ALL);
        return runner.cluster(new Effect.RunCluster(NODE, "op-1", action));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleaseStrategy.class)
    @DisplayName("a release after isolation deletes the pods and waits for them, whatever the strategy: never the"
            + " out-of-service taint (the machine may still run), never the Node object")
    void releaseAfterIsolationDeletesPodsOnly(ReleaseStrategy strategy) {
        Observation.Completed done = run(strategy, ClusterAction.RELEASE_PODS);

        assertThat(done.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulated.log()).containsExactly("delete-pods " + NODE);
        assertThat(calls).containsExactly("await " + NODE + " after " + simulated.log());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleaseStrategy.class)
    @DisplayName("the release waits for the workloads once, after it has deleted the pods (and the Node)")
    void releaseWaitsOnceAfterEveryOtherCall(ReleaseStrategy strategy) {
        Observation.Completed done = release(strategy);

        assertThat(done.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(calls).containsExactly("await " + NODE + " after " + simulated.log());
        assertThat(simulated.log()).contains("delete-pods " + NODE);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleaseStrategy.class)
    @DisplayName("a wait that runs out fails the release with its message, so the engine retries it")
    void releaseNotDoneWhileWorkloadsAreNotReleased(ReleaseStrategy strategy) {
        awaitFailure = new IllegalStateException("2 pods of node n1 still terminating");

        Observation.Completed done = release(strategy);

        assertThat(done.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(done.detail()).contains("2 pods of node n1 still terminating");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleaseStrategy.class)
    @DisplayName("a node's own release strategy wins over the engine's, and so does its undo; other nodes keep the"
            + " engine's")
    void perNodeStrategyWins(ReleaseStrategy own) {
        ReleaseStrategy engine = own == ReleaseStrategy.DELETE_NODE ? ReleaseStrategy.OUT_OF_SERVICE_TAINT
                : ReleaseStrategy.DELETE_NODE;
        simulated.node("n2", 1);
        OperationRunner runner = new OperationRunner(cluster, FenceAgentRegistry.of(), node -> Optional.empty(),
                new FakeTimeSource(), engine, node -> node.equals(NODE) ? Optional.of(own) : Optional.empty(),
                EffectGuard.ALLOW_ALL);

        runner.cluster(new Effect.RunCluster(NODE, "op-1", ClusterAction.RELEASE_WORKLOADS));
        runner.cluster(new Effect.RunCluster("n2", "op-2", ClusterAction.RELEASE_WORKLOADS));

        assertThat(simulated.exists(NODE)).isEqualTo(own != ReleaseStrategy.DELETE_NODE);
        assertThat(simulated.taints(NODE).contains(Taint.OUT_OF_SERVICE))
                .isEqualTo(own == ReleaseStrategy.OUT_OF_SERVICE_TAINT);
        assertThat(simulated.exists("n2")).isEqualTo(engine != ReleaseStrategy.DELETE_NODE);

        runner.cluster(new Effect.RunCluster(NODE, "op-3", ClusterAction.LIFT_OUT_OF_SERVICE));

        assertThat(simulated.exists(NODE)).isTrue();
        assertThat(simulated.taints(NODE)).doesNotContain(Taint.OUT_OF_SERVICE);
    }
}
