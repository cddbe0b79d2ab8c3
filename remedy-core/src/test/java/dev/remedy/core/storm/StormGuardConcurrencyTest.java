package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.storm.Admission.Held;
import dev.remedy.core.storm.Admission.Reason;
import dev.remedy.core.storm.Admission.Refused;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard concurrency, control plane and quorum guard")
class StormGuardConcurrencyTest {

    @Test
    @DisplayName("admits while fewer than maxConcurrent remediations are in progress and holds at the limit")
    void maxConcurrentBoundary() {
        StormGuard guard = Pool.guard(Pool.permissive().maxConcurrent(3).build());
        Pool two = Pool.create().remediating(2).unhealthy(1).healthy(7);
        Pool three = Pool.create().remediating(3).unhealthy(1).healthy(6);

        assertThat(guard.admit(two.candidate(), two.view(), T0).admitted()).isTrue();
        assertThat(guard.admit(three.candidate(), three.view(), T0)).isEqualTo(new Held(Reason.MAX_CONCURRENT,
                "3 remediations in progress in the pool reach maxConcurrent 3"));
    }

    @Test
    @DisplayName("counts recorded fences the observation does not show yet, until a view shows them or they finish")
    void recordedFencesCount() {
        StormGuard guard = Pool.guard(Pool.permissive().maxConcurrent(2).build());
        PoolView stale = Pool.create().unhealthy(3).healthy(7).view();

        assertThat(guard.admitAndRecord("node-0000", stale, T0).admitted()).isTrue();
        assertThat(guard.admitAndRecord("node-0001", stale, T0).admitted()).isTrue();
        assertThat(guard.admit("node-0002", stale, T0)).isInstanceOfSatisfying(Held.class,
                held -> assertThat(held.reason()).isEqualTo(Reason.MAX_CONCURRENT));

        guard.recordFinished("node-0000");
        assertThat(guard.admit("node-0002", stale, T0).admitted()).isTrue();

        PoolView fresh = Pool.create().unhealthy(1).remediating(1).unhealthy(1).healthy(7).view();
        // node-0001 now shows as remediating: counted once, not twice
        assertThat(guard.admit("node-0002", fresh, T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("does not count the candidate itself as another remediation")
    void candidateExcluded() {
        StormGuard guard = Pool.guard(Pool.permissive().maxConcurrent(1).build());
        Pool pool = Pool.create().remediating(1).healthy(3);

        assertThat(guard.admit("node-0000", pool.view(), T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("holds a second control-plane node while one is being remediated, and not a worker")
    void oneControlPlaneAtATime() {
        StormGuard guard = Pool.guard(Pool.permissive().oneControlPlaneAtATime(true).build());
        Pool pool = Pool.create().controlPlane(1, 1, 1).unhealthy(1).healthy(5);

        assertThat(guard.admit(pool.controlPlaneCandidate(), pool.view(), T0)).isEqualTo(new Held(
                Reason.CONTROL_PLANE_BUSY, "1 other control-plane node(s) being remediated; oneControlPlaneAtATime "
                        + "allows one"));
        assertThat(guard.admit(pool.workerCandidate(), pool.view(), T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("admits a control-plane node when no other one is being remediated")
    void controlPlaneAlone() {
        StormGuard guard = Pool.guard(Pool.permissive().oneControlPlaneAtATime(true).build());
        Pool pool = Pool.create().controlPlane(2, 1, 0).healthy(5);

        assertThat(guard.admit(pool.controlPlaneCandidate(), pool.view(), T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("holds a control-plane node while another one's recorded fence is not yet in the view")
    void controlPlaneRecorded() {
        StormGuard guard = Pool.guard(Pool.permissive().oneControlPlaneAtATime(true).build());
        PoolView view = Pool.create().controlPlane(1, 2, 0).view();

        guard.recordFence("node-0001", T0);

        assertThat(guard.admit("node-0002", view, T0)).isInstanceOfSatisfying(Held.class,
                held -> assertThat(held.reason()).isEqualTo(Reason.CONTROL_PLANE_BUSY));
    }

    @Test
    @DisplayName("refuses a control-plane node the quorum guard vetoes, and never consults it for a worker")
    void quorumVeto() {
        AtomicInteger consulted = new AtomicInteger();
        QuorumGuard veto = (node, pool) -> {
            consulted.incrementAndGet();
            return Optional.of("etcd member " + node.name() + " is the only voter in sync");
        };
        StormGuard guard = Pool.guard(Pool.permissive().build(), veto, StormListener.NONE);
        Pool pool = Pool.create().controlPlane(2, 1, 0).unhealthy(1).healthy(5);

        assertThat(guard.admit("node-0002", pool.view(), T0)).isEqualTo(new Refused(Reason.QUORUM_GUARD,
                "quorum guard vetoed fencing control-plane node node-0002: etcd member node-0002 is the only voter "
                        + "in sync"));
        assertThat(guard.admit(pool.workerCandidate(), pool.view(), T0).admitted()).isTrue();
        assertThat(consulted).hasValue(1);
    }

    @Test
    @DisplayName("counts a failing quorum guard as a veto")
    void quorumGuardFails() {
        StormGuard guard = Pool.guard(Pool.permissive().build(), (node, pool) -> {
            throw new IllegalStateException("etcd unreachable");
        }, StormListener.NONE);
        Pool pool = Pool.create().controlPlane(2, 1, 0);

        assertThat(guard.admit("node-0002", pool.view(), T0)).isInstanceOfSatisfying(Refused.class, refused -> {
            assertThat(refused.reason()).isEqualTo(Reason.QUORUM_GUARD);
            assertThat(refused.detail()).contains("etcd unreachable");
        });
    }

    @Test
    @DisplayName("the default quorum guard vetoes while another control-plane node is being remediated")
    void defaultQuorumGuard() {
        StormGuard guard = Pool.guard(Pool.permissive().oneControlPlaneAtATime(false).build(),
                QuorumGuard.oneAtATime(), StormListener.NONE);
        Pool busy = Pool.create().controlPlane(1, 1, 1);
        Pool idle = Pool.create().controlPlane(2, 1, 0);

        assertThat(guard.admit(busy.controlPlaneCandidate(), busy.view(), T0)).isInstanceOfSatisfying(Refused.class,
                refused -> assertThat(refused.detail()).contains("1 other control-plane node(s) are being remediated"));
        assertThat(guard.admit(idle.controlPlaneCandidate(), idle.view(), T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("the majority quorum guard keeps a strict majority of control-plane nodes healthy")
    void majorityQuorumGuard() {
        QuorumGuard majority = QuorumGuard.majority();
        PoolView threeOneDown = Pool.create().controlPlane(2, 1, 0).view();
        PoolView threeTwoDown = Pool.create().controlPlane(1, 2, 0).view();
        PoolView fiveTwoDown = Pool.create().controlPlane(3, 2, 0).view();

        assertThat(majority.veto(threeOneDown.node("node-0002").orElseThrow(), threeOneDown)).isEmpty();
        assertThat(majority.veto(threeTwoDown.node("node-0001").orElseThrow(), threeTwoDown))
                .contains("fencing it would leave 1 of 3 control-plane nodes healthy, a majority needs 2");
        assertThat(majority.veto(fiveTwoDown.node("node-0003").orElseThrow(), fiveTwoDown)).isEmpty();
        assertThat(majority.veto(threeOneDown.node("node-0000").orElseThrow(), threeOneDown))
                .as("fencing a healthy one of 3 with one down leaves 1").isPresent();
    }

    @Test
    @DisplayName("refuses to answer for a node that is not in the pool view")
    void unknownNode() {
        StormGuard guard = Pool.guard(Pool.permissive().build());

        assertThatThrownBy(() -> guard.admit("ghost", Pool.create().healthy(2).view(), T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node ghost is not in the pool view");
    }
}
