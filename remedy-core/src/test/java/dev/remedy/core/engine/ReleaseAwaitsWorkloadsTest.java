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
        OperationRunner runner = new OperationRunner(cluster, FenceAgentRegistry.of(), node -> Optional.empty(),
                new FakeTimeSource(), strategy, EffectGuard.ALLOW_ALL);
        return runner.cluster(new Effect.RunCluster(NODE, "op-1", ClusterAction.RELEASE_WORKLOADS));
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
}
