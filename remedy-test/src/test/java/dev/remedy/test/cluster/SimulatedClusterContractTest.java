package dev.remedy.test.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import dev.remedy.test.conformance.ClusterOperationsContract;
import java.util.List;
import org.junit.jupiter.api.DisplayName;

/** {@link SimulatedCluster} keeps every promise of {@link ClusterOperations}. */
@DisplayName("SimulatedCluster")
class SimulatedClusterContractTest extends ClusterOperationsContract {

    private final SimulatedCluster cluster = new SimulatedCluster();

    @Override
    protected ClusterOperations cluster() {
        return cluster;
    }

    @Override
    protected void addNode(String name, int pods) {
        cluster.node(name, pods);
    }

    @Override
    protected boolean cordoned(String node) {
        return cluster.cordoned(node);
    }

    @Override
    protected List<Taint> taints(String node) {
        return List.copyOf(cluster.taints(node));
    }

    @Override
    protected int pods(String node) {
        return cluster.pods(node);
    }

    @Override
    protected boolean exists(String node) {
        return cluster.exists(node);
    }
}
