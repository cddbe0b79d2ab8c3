package dev.remedy.fence.kube.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.ClusterAction;
import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.core.store.StateStoreException;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The guard allows acting only within the renew deadline after the last renewal, on the process's own clock. */
class LeaseGuardTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final AtomicReference<OptionalLong> lastRenew = new AtomicReference<>(OptionalLong.empty());
    private final LeaseGuard guard = new LeaseGuard("pod-a", "remedy/remedy-rack-a", Duration.ofSeconds(10), time,
            lastRenew::get);
    private final SimulatedCluster cluster = new SimulatedCluster().node("n1", 2);
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final Effect cordon = new Effect.RunCluster("n1", "n1#1", ClusterAction.ISOLATE);

    @Test
    @DisplayName("acting is allowed until last renewal + renew deadline, and refused from then on")
    void renewDeadline() {
        assertThat(guard.holds()).isFalse();
        assertThat(guard.why()).hasValueSatisfying(why -> assertThat(why).contains("no renewal"));
        lastRenew.set(OptionalLong.of(time.nanoTime()));
        time.advance(Duration.ofMillis(9_999));
        assertThat(guard.holds()).isTrue();
        assertThat(guard.refusal(cordon)).isEmpty();
        time.advance(Duration.ofMillis(1));
        assertThat(guard.holds()).isFalse();
        assertThat(guard.refusal(cordon)).hasValueSatisfying(why -> assertThat(why)
                .contains("pod-a", "remedy/remedy-rack-a", "10000 ms ago", "renew deadline of 10000 ms"));
        lastRenew.set(OptionalLong.of(time.nanoTime()));
        assertThat(guard.holds()).isTrue();
    }

    @Test
    @DisplayName("a term that ended never holds again, even with a fresh renewal (that belongs to a later term)")
    void endedTerm() {
        lastRenew.set(OptionalLong.of(time.nanoTime()));
        guard.end();
        assertThat(guard.holds()).isFalse();
        assertThat(guard.why()).hasValueSatisfying(why -> assertThat(why).contains("term as leader ended"));
    }

    @Test
    @DisplayName("the wrappers refuse writes and cluster calls with a NotLeaderException naming the action and the"
            + " Lease, and pass while the Lease is held")
    void wrappers() {
        LeaderOnlyStateStore fencedStore = new LeaderOnlyStateStore(store, guard);
        LeaderOnlyClusterOperations fencedCluster = new LeaderOnlyClusterOperations(cluster, guard);
        NodeFence record = NodeFence.heldForAdmin("n1", Instant.parse("2026-01-01T00:00:00Z"), "test");

        assertThatThrownBy(() -> fencedStore.save(record)).isInstanceOf(NotLeaderException.class)
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("saving the fence record of node n1")
                .hasMessageContaining("does not hold Lease remedy/remedy-rack-a")
                .satisfies(e -> assertThat(((NotLeaderException) e).identity()).isEqualTo("pod-a"));
        assertThatThrownBy(() -> fencedCluster.cordon("n1")).isInstanceOf(NotLeaderException.class)
                .hasMessageStartingWith("cordon of node n1 refused: this process ('pod-a')");
        assertThatThrownBy(() -> fencedCluster.addTaint("n1", Taint.OUT_OF_SERVICE))
                .hasMessageContaining("adding taint node.kubernetes.io/out-of-service to node n1");
        assertThatThrownBy(() -> fencedStore.delete("n1")).isInstanceOf(NotLeaderException.class);
        assertThat(cluster.log()).isEmpty();
        assertThat(store.loadAll()).isEmpty();

        lastRenew.set(OptionalLong.of(time.nanoTime()));
        fencedCluster.cordon("n1");
        fencedCluster.deletePods("n1");
        assertThat(fencedStore.save(record).version()).isEqualTo(1);
        assertThat(fencedStore.load("n1")).isPresent();
        assertThat(cluster.log()).containsExactly("cordon n1", "delete-pods n1");

        time.advance(Duration.ofSeconds(10));
        assertThat(fencedStore.load("n1")).as("reads pass").isPresent();
        assertThatThrownBy(() -> fencedCluster.uncordon("n1")).isInstanceOf(NotLeaderException.class);
        assertThat(cluster.cordoned("n1")).isTrue();
    }

    @Test
    @DisplayName("the wrapper passes the release wait on to the cluster while the Lease is held, and refuses it "
            + "without (the interface's default would skip the wait)")
    void releaseWait() {
        java.util.List<String> waits = new java.util.ArrayList<>();
        ClusterOperations waiting = new ClusterOperations() {
            @Override
            public void cordon(String node) {
                cluster.cordon(node);
            }

            @Override
            public void uncordon(String node) {
                cluster.uncordon(node);
            }

            @Override
            public void addTaint(String node, Taint taint) {
                cluster.addTaint(node, taint);
            }

            @Override
            public void removeTaint(String node, Taint taint) {
                cluster.removeTaint(node, taint);
            }

            @Override
            public void deletePods(String node) {
                cluster.deletePods(node);
            }

            @Override
            public void awaitWorkloadsReleased(String node) {
                waits.add(node);
            }

            @Override
            public void deleteNode(String node) {
                cluster.deleteNode(node);
            }

            @Override
            public void restoreNode(String node) {
                cluster.restoreNode(node);
            }
        };
        LeaderOnlyClusterOperations fenced = new LeaderOnlyClusterOperations(waiting, guard);

        assertThatThrownBy(() -> fenced.awaitWorkloadsReleased("n1")).isInstanceOf(NotLeaderException.class)
                .hasMessageStartingWith("waiting for the workloads of node n1 to be released refused");
        assertThat(waits).isEmpty();

        lastRenew.set(OptionalLong.of(time.nanoTime()));
        fenced.awaitWorkloadsReleased("n1");
        assertThat(waits).containsExactly("n1");
    }

    @Test
    @DisplayName("fence() wires the store, the cluster and the engine's effect guard")
    void fenceBuilder() {
        var engine = guard.fence(dev.remedy.core.engine.FenceEngine.builder(), store, cluster)
                .agents(dev.remedy.spi.discovery.FenceAgentRegistry.of()).plans(n -> java.util.Optional.empty())
                .time(time).executor(Runnable::run).build();
        engine.start();
        engine.decide("n1", "NotReady");
        assertThat(store.loadAll()).as("the decision could not be saved: no Lease").isEmpty();
        assertThat(engine.unsavedNodes()).containsKey("n1");
        assertThatThrownBy(() -> guard.fence(dev.remedy.core.engine.FenceEngine.builder(), store, cluster)
                .effectGuard(e -> java.util.Optional.empty())).hasMessageStartingWith("effectGuard was already set");
    }
}
