package dev.remedy.fence.kube.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.engine.Taint;
import dev.remedy.fence.kube.ha.FailoverWorld.Fault;
import dev.remedy.fence.kube.ha.FailoverWorld.Replica;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * THE failover test: two replicas of one shard against one API server (the fabric8 mock server in CRUD mode, a
 * fresh one per scenario: Leases, the LeaderElector's take-over, NodeFence custom resources with resourceVersion
 * checks, Node patches, pods and VolumeAttachments work there as on a real one). Each replica has its own client,
 * ShardLeadership, {@code KubeFenceStateStore} and {@code KubeClusterOperations}; they share only the API server
 * and the power lab (the BMC). The leader runs one node's full flow; at every effect boundary k it is crashed
 * (stops renewing without releasing the Lease, its engine closed) or paused (its threads blocked, its elector
 * frozen; it resumes once the standby took over). Each scenario checks that the flow ends exactly once, that
 * workloads are released only while the machine is confirmed off (checked as each release call goes out, against
 * the BMC and the NodeFence), that the host is on at the end, that the standby did the rest, that the old leader
 * did nothing after the boundary, and, read back from the API server, that the Node is schedulable and untainted,
 * its pods and VolumeAttachment are gone, the bystander node is untouched, and one NodeFence holds the finished
 * record. Real time, short Lease timings (2.5 s / 2 s / 0.1 s: a renewal may be 2 s late on a loaded machine
 * before the leader steps down); no timing assertion.
 *
 * <p>Mock server gap routed around: its field selector {@code spec.nodeName} matches nothing, so the replicas list
 * pods without it ({@link ApiServer#listPodsWithoutFieldSelector}).
 */
@EnableKubernetesMockClient(crud = true)
class ShardFailoverTest {

    /** Every effect of the flow, in order: cluster calls and agent actions. */
    static final List<String> EFFECTS = List.of("cordon", "add-taint " + Taint.FENCING.key(), "agent off",
            "agent status", "add-taint " + Taint.OUT_OF_SERVICE.key(), "delete-pods",
            "await-release", "remove-taint " + Taint.OUT_OF_SERVICE.key(), "agent on", "remove-taint " + Taint.FENCING.key(),
            "uncordon");
    /** Before and after each effect. */
    static final List<String> BOUNDARIES = EFFECTS.stream()
            .flatMap(effect -> Stream.of("before " + effect, "after " + effect)).toList();
    private static final AtomicInteger SHARDS = new AtomicInteger();

    /** The test's own client on this scenario's API server (a fresh server per test). */
    KubernetesClient client;

    static Stream<Arguments> boundaries() {
        List<Arguments> all = new ArrayList<>();
        for (Fault fault : Fault.values()) {
            for (int k = 0; k < BOUNDARIES.size(); k++) {
                all.add(Arguments.of(fault, k, BOUNDARIES.get(k)));
            }
        }
        return all.stream();
    }

    @Test
    @DisplayName("without a fault the leader runs the whole flow, through exactly the boundaries the scenarios use")
    void baseline() throws Exception {
        String shard = "base-" + SHARDS.incrementAndGet();
        try (FailoverWorld world = new FailoverWorld(new ApiServer(client), shard, -1, Fault.CRASH)) {
            runFlow(world, null);
            assertThat(world.a.boundaries).containsExactlyElementsOf(BOUNDARIES);
            assertThat(world.trailOf(world.b, 0)).isEmpty();
            assertSettledOnce(world);
        }
    }

    @ParameterizedTest(name = "{0} the leader at boundary {1}: {2}")
    @MethodSource("boundaries")
    @DisplayName("the standby finishes the flow exactly once whatever boundary the leader stops at")
    void failover(Fault fault, int k, String boundary) throws Exception {
        String shard = fault.name().toLowerCase(java.util.Locale.ROOT) + "-" + k + "-" + SHARDS.incrementAndGet();
        try (FailoverWorld world = new FailoverWorld(new ApiServer(client), shard, k, fault)) {
            runFlow(world, fault);

            assertThat(world.faultIndex).as("the leader reached boundary %s", boundary).isNotNegative();
            // a paused leader that wakes up mid-action may reach the next call's "before" (its fence refuses it)
            assertThat(world.a.boundaries).startsWith(BOUNDARIES.subList(0, k + 1).toArray(String[]::new));
            List<String> leaderEffects = world.trailOf(world.a, 0).stream().filter(e -> !e.startsWith("a save"))
                    .toList();
            int done = k / 2 + (boundary.startsWith("after") ? 1 : 0);
            assertThat(leaderEffects).as("the leader's effects up to %s", boundary)
                    .containsExactlyElementsOf(EFFECTS.subList(0, done).stream().map(e -> "a " + e).toList());
            assertThat(world.trailOf(world.a, world.faultIndex)).as("what the old leader did after %s", boundary)
                    .isEmpty();
            assertThat(world.trailOf(world.b, 0)).as("the standby did the rest").isNotEmpty()
                    .contains("b save " + Stage.FINISHED.code());
            assertThat(world.trail.subList(0, world.faultIndex)).as("nothing from the standby before the fault")
                    .noneMatch(e -> e.startsWith("b "));
            assertThat(world.b.events).filteredOn(FenceEvent.Transitioned.class::isInstance)
                    .map(e -> ((FenceEvent.Transitioned) e).to()).contains(Stage.FINISHED);
            assertSettledOnce(world);
        }
    }

    /** Starts the leader, then the standby, decides, and drives both until the record is settled. */
    private static void runFlow(FailoverWorld world, Fault fault) throws Exception {
        Replica a = world.a;
        Replica b = world.b;
        a.leadership.start();
        assertThat(FailoverWorld.await(() -> a.leadership.engine().isPresent(), Duration.ofSeconds(10), () -> { }))
                .as("the first replica leads").isTrue();
        b.leadership.start();
        a.leadership.engine().orElseThrow().decide(FailoverWorld.NODE, "Ready=Unknown for 5m");
        boolean[] resumed = {false};
        boolean settled = FailoverWorld.await(
                () -> world.api.record(FailoverWorld.NODE).map(NodeFence::isSettled).orElse(false),
                Duration.ofSeconds(30), () -> {
                    a.reconcile();
                    b.reconcile();
                    if (fault == Fault.PAUSE && a.paused && !resumed[0] && b.leadership.engine().isPresent()) {
                        resumed[0] = true; // the standby took over: the old leader wakes up
                        world.resumeLeader();
                    }
                });
        assertThat(settled).as("the flow settles; trail %s", world.trail).isTrue();
        if (fault == null) {
            return; // the leader leads on: nothing to wait for
        }
        if (fault == Fault.PAUSE && !resumed[0]) {
            world.resumeLeader(); // the standby finished before the loop saw it lead: wake the old leader now
        }
        // a woken leader must stay quiet: let it wake and try, then look again
        assertThat(FailoverWorld.await(() -> !a.paused && !a.leadership.isLeading() && a.leadership.engine().isEmpty(),
                Duration.ofSeconds(10), () -> { })).as("the old leader woke up (or died) and stopped leading").isTrue();
        Thread.sleep(100);
    }

    private static void assertSettledOnce(FailoverWorld world) {
        ApiServer api = world.api;
        String node = FailoverWorld.NODE;
        assertThat(api.nodeFences()).as("the NodeFences on the API server").singleElement().satisfies(nf -> {
            assertThat(nf.getMetadata().getName()).isEqualTo(node);
            assertThat(nf.getSpec().getState()).isEqualTo(FenceState.FINAL.code());
        });
        assertThat(api.records()).singleElement().satisfies(record -> {
            assertThat(record.state()).isEqualTo(FenceState.FINAL);
            assertThat(record.stage()).isEqualTo(Stage.FINISHED);
            assertThat(record.confirmation()).as("the OFF that allowed the release").isPresent();
        });
        List<FenceEvent> all = new ArrayList<>(world.a.events);
        all.addAll(world.b.events);
        assertThat(all).filteredOn(e -> e instanceof FenceEvent.Transitioned t && t.to() == Stage.FINISHED)
                .as("the flow finished once").hasSize(1);
        assertThat(world.trail).filteredOn(e -> e.endsWith(" save " + Stage.FINISHED.code())).hasSize(1);
        assertThat(world.violations).isEmpty();
        assertThat(world.target.power()).isEqualTo(PowerState.ON);
        assertThat(world.target.history()).containsSubsequence(PowerState.OFF, PowerState.ON);
        assertThat(api.cordoned(node)).as("the Node is schedulable").isFalse();
        assertThat(api.taints(node)).as("the Node's taints").isEmpty();
        assertThat(api.pods(node)).as("the Node's pods, force-deleted").isEmpty();
        assertThat(api.attachments(node)).as("the Node's VolumeAttachments, deleted").isEmpty();
        assertThat(api.pods(ApiServer.BYSTANDER)).as("the bystander's pods").hasSize(FailoverWorld.BYSTANDER_PODS);
        assertThat(api.attachments(ApiServer.BYSTANDER)).as("the bystander's VolumeAttachment").hasSize(1);
        assertThat(api.taints(ApiServer.BYSTANDER)).isEmpty();
        assertThat(api.cordoned(ApiServer.BYSTANDER)).isFalse();
        List<String> order = world.trail.stream().map(e -> e.substring(2)).toList();
        assertThat(order).as("off before release, release before on, on before recovery")
                .containsSubsequence("agent off", "delete-pods", "await-release",
                        "remove-taint " + Taint.OUT_OF_SERVICE.key(), "agent on", "uncordon");
    }
}
