package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.fence.kube.ha.FailoverWorld.Replica;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.fake.WrappedFakeProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The seams of one replica of a {@link FailoverWorld}, between its engine and its own Kubernetes objects: the
 * boundary hook around each cluster call, the recorders that write each effect to the world's trail, and the fake
 * agent on the shared power lab. The recorders also check, at the moment of each release call, that the machine is
 * off and the NodeFence holds the confirmation, reading both from outside the replica.
 */
final class FailoverSeams {

    /** The calls that release a node's workloads: only while the machine is confirmed off. */
    static final List<String> RELEASE_CALLS = List.of("add-taint " + Taint.OUT_OF_SERVICE.key(), "delete-pods",
            "await-release");

    private FailoverSeams() {
    }

    /** Calls the replica's boundary hook around each cluster call, outside the Lease fence. */
    record HookedCluster(Replica replica, ClusterOperations next) implements ClusterOperations {
        private void around(String verb, Runnable call) {
            replica.boundary("before " + verb);
            call.run();
            replica.boundary("after " + verb);
        }

        @Override
        public void cordon(String node) {
            around("cordon", () -> next.cordon(node));
        }

        @Override
        public void uncordon(String node) {
            around("uncordon", () -> next.uncordon(node));
        }

        @Override
        public void addTaint(String node, Taint taint) {
            around("add-taint " + taint.key(), () -> next.addTaint(node, taint));
        }

        @Override
        public void removeTaint(String node, Taint taint) {
            around("remove-taint " + taint.key(), () -> next.removeTaint(node, taint));
        }

        @Override
        public void deletePods(String node) {
            around("delete-pods", () -> next.deletePods(node));
        }

        @Override
        public void awaitWorkloadsReleased(String node) {
            around("await-release", () -> next.awaitWorkloadsReleased(node));
        }

        @Override
        public void deleteNode(String node) {
            around("delete-node", () -> next.deleteNode(node));
        }

        @Override
        public void restoreNode(String node) {
            around("restore-node", () -> next.restoreNode(node));
        }
    }

    /** The replica's own cluster operations, each call written to the trail under the replica's name. */
    record RecordingCluster(Replica replica, ClusterOperations kube) implements ClusterOperations {
        private void call(String what, Runnable call) {
            replica.effect(what);
            if (RELEASE_CALLS.contains(what)) {
                replica.world().checkRelease(what);
            }
            call.run();
        }

        @Override
        public void cordon(String node) {
            call("cordon", () -> kube.cordon(node));
        }

        @Override
        public void uncordon(String node) {
            call("uncordon", () -> kube.uncordon(node));
        }

        @Override
        public void addTaint(String node, Taint taint) {
            call("add-taint " + taint.key(), () -> kube.addTaint(node, taint));
        }

        @Override
        public void removeTaint(String node, Taint taint) {
            call("remove-taint " + taint.key(), () -> kube.removeTaint(node, taint));
        }

        @Override
        public void deletePods(String node) {
            call("delete-pods", () -> kube.deletePods(node));
        }

        @Override
        public void awaitWorkloadsReleased(String node) {
            call("await-release", () -> kube.awaitWorkloadsReleased(node));
        }

        @Override
        public void deleteNode(String node) {
            call("delete-node", () -> kube.deleteNode(node));
        }

        @Override
        public void restoreNode(String node) {
            call("restore-node", () -> kube.restoreNode(node));
        }
    }

    /** The replica's own store, each write written to the trail under the replica's name. */
    record RecordingStore(Replica replica, FenceStateStore kube) implements FenceStateStore {
        @Override
        public Optional<NodeFence> load(String node) {
            return kube.load(node);
        }

        @Override
        public List<NodeFence> loadAll() {
            return kube.loadAll();
        }

        @Override
        public NodeFence save(NodeFence record) {
            replica.effect("save " + record.stage().code());
            return kube.save(record);
        }

        @Override
        public void delete(String node) {
            replica.effect("delete-record");
            kube.delete(node);
        }

        @Override
        public Map<String, String> lostRecords() {
            return kube.lostRecords();
        }

        @Override
        public List<String> problems() {
            return kube.problems();
        }
    }

    /** The fake agent on the shared lab (the BMC), recording each action and its "after" boundary. */
    static final class HookedProvider extends WrappedFakeProvider {
        static final String TYPE = "hooked";
        private final Replica replica;

        HookedProvider(Replica replica) {
            super(replica.world().lab);
            this.replica = replica;
        }

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        protected FenceAgent wrap(FenceAgent honest, AgentConfig config) {
            return (request, context) -> {
                String action = request.action().code();
                replica.effect("agent " + action);
                if (request.action() == FenceAction.ON) {
                    replica.world().checkPowerOn();
                }
                var outcome = honest.execute(request, context);
                replica.boundary("after agent " + action);
                return outcome;
            };
        }
    }
}
