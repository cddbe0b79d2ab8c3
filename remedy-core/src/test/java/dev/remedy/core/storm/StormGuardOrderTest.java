package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.Admission.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard order of checks and denial signals")
class StormGuardOrderTest {

    private final AtomicBoolean veto = new AtomicBoolean(true);
    private final List<StormSignal> signals = new ArrayList<>();

    /** What is wrong with the pool: each flag breaks one rule. */
    private record Trouble(int disconnected, boolean rackDown, int stormExtra, boolean cpBusy, boolean workerBusy) {
    }

    /** 20 nodes: the candidate (control plane, rack r1), two rack mates, a second control plane, 16 workers. */
    private static PoolView pool(Trouble t) {
        List<NodeView> nodes = new ArrayList<>();
        nodes.add(new NodeView("cand", true, true, false, false, Optional.of("r1"), 0));
        for (int i = 1; i <= 2; i++) {
            nodes.add(new NodeView("mate-" + i, false, t.rackDown(), false, false, Optional.of("r1"), 0));
        }
        nodes.add(new NodeView("cp-2", true, t.cpBusy(), t.cpBusy(), false, Optional.of("r2"), 0));
        nodes.add(new NodeView("worker", false, t.workerBusy(), t.workerBusy(), false, Optional.of("r2"), 0));
        for (int i = 0; i < 15; i++) {
            nodes.add(new NodeView("x-" + i, false, i < t.stormExtra(), false, i >= 5 && i < 5 + t.disconnected(),
                    Optional.of("r3"), 0));
        }
        return PoolView.of(nodes);
    }

    private Reason reason(StormGuard guard, Trouble trouble, Instant now) {
        Admission admission = guard.admit("cand", pool(trouble), now);
        return admission instanceof Admission.Denied denied ? denied.reason() : null;
    }

    @Test
    @DisplayName("checks quiet period, connectivity, shared infrastructure, threshold, cooldown, concurrency, "
            + "control plane, quorum, fence rate, pod deletion rate, in that order")
    void documentedOrder() {
        StormSettings settings = StormSettings.custom().quietPeriod(Duration.ofSeconds(60))
                .maxDisconnectedShare(0.5).failureDomainLabel("rack").domainMinUnhealthy(3).maxDomainShare(0.5)
                .maxUnhealthy("5").stormCooldown(Duration.ofSeconds(10)).maxConcurrent(2)
                .oneControlPlaneAtATime(true).fencesPerWindow(1, Duration.ofHours(1))
                .podDeletionsPerWindow(1, Duration.ofHours(1)).build();
        StormGuard guard = Pool.guard(settings, (node, pool) -> veto.get()
                ? Optional.of("no quorum without it") : Optional.empty(), signals::add);
        guard.recordFence("elsewhere", T0);
        guard.recordFinished("elsewhere");
        guard.tryRecordPodDeletions(1, T0.plusSeconds(3000));

        assertThat(reason(guard, new Trouble(10, true, 6, true, true), T0)).isEqualTo(Reason.QUIET_PERIOD);
        assertThat(reason(guard, new Trouble(10, true, 6, true, true), T0.plusSeconds(60)))
                .isEqualTo(Reason.CONNECTIVITY_LOSS);
        assertThat(reason(guard, new Trouble(0, true, 6, true, true), T0.plusSeconds(60)))
                .isEqualTo(Reason.SHARED_INFRASTRUCTURE);
        assertThat(reason(guard, new Trouble(0, false, 6, true, true), T0.plusSeconds(60)))
                .isEqualTo(Reason.MAX_UNHEALTHY);
        assertThat(reason(guard, new Trouble(0, false, 0, true, true), T0.plusSeconds(61)))
                .isEqualTo(Reason.STORM_COOLDOWN);
        assertThat(reason(guard, new Trouble(0, false, 0, true, true), T0.plusSeconds(71)))
                .isEqualTo(Reason.MAX_CONCURRENT);
        assertThat(reason(guard, new Trouble(0, false, 0, true, false), T0.plusSeconds(71)))
                .isEqualTo(Reason.CONTROL_PLANE_BUSY);
        assertThat(reason(guard, new Trouble(0, false, 0, false, false), T0.plusSeconds(71)))
                .isEqualTo(Reason.QUORUM_GUARD);
        veto.set(false);
        assertThat(reason(guard, new Trouble(0, false, 0, false, false), T0.plusSeconds(71)))
                .isEqualTo(Reason.FENCE_RATE);
        assertThat(reason(guard, new Trouble(0, false, 0, false, false), T0.plusSeconds(3600)))
                .isEqualTo(Reason.POD_DELETION_RATE);
        assertThat(reason(guard, new Trouble(0, false, 0, false, false), T0.plusSeconds(6600))).isNull();
    }

    @Test
    @DisplayName("reports every denial as a signal carrying the same decision")
    void everyDenialIsASignal() {
        StormGuard guard = Pool.guard(Pool.permissiveMaxUnhealthy("0").build(), (n, p) -> Optional.empty(),
                signals::add);
        Pool pool = Pool.create().unhealthy(1).healthy(3);

        Admission first = guard.admit(pool.candidate(), pool.view(), T0);
        Admission second = guard.admit(pool.candidate(), pool.view(), T0.plusSeconds(1));

        assertThat(signals).filteredOn(StormSignal.AdmissionDenied.class::isInstance).containsExactly(
                new StormSignal.AdmissionDenied("node-0000", T0, (Admission.Denied) first),
                new StormSignal.AdmissionDenied("node-0000", T0.plusSeconds(1), (Admission.Denied) second));
        assertThat(signals.get(signals.size() - 1).detail()).isEqualTo(((Admission.Denied) second).detail());
    }

    @Test
    @DisplayName("a failing listener never changes a decision")
    void failingListener() {
        StormGuard guard = Pool.guard(Pool.permissiveMaxUnhealthy("0").build(), (n, p) -> Optional.empty(),
                signal -> {
                    throw new IllegalStateException("listener broke");
                });
        Pool pool = Pool.create().unhealthy(1).healthy(3);

        Admission admission = guard.admit(pool.candidate(), pool.view(), T0);

        assertThat(admission).isInstanceOfSatisfying(Admission.Refused.class,
                refused -> assertThat(refused.reason()).isEqualTo(Reason.MAX_UNHEALTHY));
        assertThat(guard.inStorm()).isTrue();
    }

    @Test
    @DisplayName("names the setting behind every reason")
    void reasonsNameTheirSetting() {
        assertThat(Reason.values()).extracting(Reason::property).doesNotContainNull().doesNotHaveDuplicates()
                .contains("minHealthy", "maxUnhealthy", "stormCooldown", "maxConcurrent", "oneControlPlaneAtATime",
                        "quorumGuard", "fencesPerWindow", "podDeletionsPerWindow", "maxDomainShare",
                        "maxDisconnectedShare", "quietPeriod");
    }
}
