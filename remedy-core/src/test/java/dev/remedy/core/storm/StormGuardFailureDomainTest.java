package dev.remedy.core.storm;

import static dev.remedy.core.storm.Pool.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.storm.Admission.Reason;
import dev.remedy.core.storm.Admission.Refused;
import dev.remedy.core.storm.StormSettings.DomainShareBasis;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StormGuard failure-domain awareness")
class StormGuardFailureDomainTest {

    private final List<StormSignal> signals = new ArrayList<>();

    private StormGuard guard(StormSettings.Builder settings) {
        return Pool.guard(settings.failureDomainLabel("rack").build(), (node, pool) -> Optional.empty(),
                signals::add);
    }

    private static StormSettings.Builder racks() {
        return Pool.permissive().maxDomainShare(0.5).domainMinUnhealthy(3);
    }

    @Test
    @DisplayName("refuses fencing in a rack whose 5 nodes of 20 are all unhealthy, suspecting the rack once")
    void wholeRackDown() {
        StormGuard guard = guard(racks());
        Pool pool = Pool.create().domain("r1", 0, 5).domain("r2", 4, 1).domain("r3", 5, 0).domain("r4", 5, 0);
        PoolView view = pool.view();

        Admission first = guard.admit(pool.candidateIn("r1"), view, T0);
        Admission second = guard.admit("node-0001", view, T0.plusSeconds(1));

        String detail = "suspect shared infrastructure in rack=r1: 5 of its 5 nodes not healthy (100%) reaches "
                + "maxDomainShare 50% with at least 3 (domainMinUnhealthy)";
        assertThat(first).isEqualTo(new Refused(Reason.SHARED_INFRASTRUCTURE, detail));
        assertThat(second).isEqualTo(first);
        assertThat(guard.suspectedDomains()).containsExactly("r1");
        assertThat(signals).filteredOn(StormSignal.SharedInfrastructureSuspected.class::isInstance).singleElement()
                .isEqualTo(new StormSignal.SharedInfrastructureSuspected(T0, "rack", "r1", detail));
        assertThat(guard.admit(pool.candidateIn("r2"), view, T0).admitted()).as("another rack").isTrue();
    }

    @Test
    @DisplayName("admits when 5 unhealthy nodes are spread over 5 racks")
    void spreadOut() {
        StormGuard guard = guard(racks());
        Pool pool = Pool.create();
        for (int rack = 1; rack <= 5; rack++) {
            pool.domain("r" + rack, 3, 1);
        }

        assertThat(guard.admit(pool.candidateIn("r3"), pool.view(), T0).admitted()).isTrue();
        assertThat(guard.suspectedDomains()).isEmpty();
    }

    @Test
    @DisplayName("applies only from domainMinUnhealthy not-healthy nodes in the domain")
    void minimumBoundary() {
        Pool two = Pool.create().domain("r1", 0, 2).domain("r2", 8, 0);
        Pool three = Pool.create().domain("r1", 0, 3).domain("r2", 7, 0);

        assertThat(guard(racks()).admit(two.candidateIn("r1"), two.view(), T0).admitted()).isTrue();
        assertThat(guard(racks()).admit(three.candidateIn("r1"), three.view(), T0))
                .isInstanceOfSatisfying(Refused.class, r -> assertThat(r.reason())
                        .isEqualTo(Reason.SHARED_INFRASTRUCTURE));
    }

    @Test
    @DisplayName("of the domain's nodes: 3 of 6 reaches a share of 0.5, 3 of 7 does not")
    void domainShareBoundary() {
        Pool half = Pool.create().domain("r1", 3, 3).domain("r2", 6, 0);
        Pool less = Pool.create().domain("r1", 4, 3).domain("r2", 6, 0);

        assertThat(guard(racks()).admit(half.candidateIn("r1"), half.view(), T0)).isInstanceOf(Refused.class);
        assertThat(guard(racks()).admit(less.candidateIn("r1"), less.view(), T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("of all unhealthy nodes: a big rack holding most failures is suspect even if mostly up")
    void unhealthyShareBasis() {
        StormSettings.Builder settings = racks().domainShareBasis(DomainShareBasis.OF_UNHEALTHY_NODES);
        Pool concentrated = Pool.create().domain("r1", 17, 3).domain("r2", 19, 1);
        Pool spread = Pool.create().domain("r1", 17, 3).domain("r2", 17, 3).domain("r3", 17, 3);

        Admission refused = guard(settings).admit(concentrated.candidateIn("r1"), concentrated.view(), T0);
        assertThat(refused).isInstanceOfSatisfying(Refused.class, r -> assertThat(r.detail()).isEqualTo(
                "suspect shared infrastructure in rack=r1: 3 of the pool's 4 not-healthy nodes are in it (75%) "
                        + "reaches maxDomainShare 50% with at least 3 (domainMinUnhealthy)"));
        assertThat(guard(racks()).admit(concentrated.candidateIn("r1"), concentrated.view(), T0).admitted())
                .as("the same pool, share of the domain's nodes").isTrue();
        assertThat(guard(settings).admit(spread.candidateIn("r1"), spread.view(), T0).admitted()).isTrue();
    }

    @Test
    @DisplayName("clears the suspicion once the rack recovers, and suspects it again in a new episode")
    void episodes() {
        StormGuard guard = guard(racks());
        PoolView down = Pool.create().domain("r1", 0, 4).domain("r2", 4, 0).view();
        PoolView up = Pool.create().domain("r1", 3, 1).domain("r2", 4, 0).view();

        guard.observe(down, T0);
        guard.observe(down, T0.plusSeconds(10));
        guard.observe(up, T0.plusSeconds(20));
        assertThat(guard.admit("node-0003", up, T0.plusSeconds(21)).admitted()).isTrue();
        guard.observe(down, T0.plusSeconds(30));

        assertThat(signals).extracting(s -> s.getClass().getSimpleName()).containsExactly(
                "SharedInfrastructureSuspected", "SharedInfrastructureCleared", "SharedInfrastructureSuspected");
        assertThat(signals.get(1)).isEqualTo(new StormSignal.SharedInfrastructureCleared(T0.plusSeconds(20), "rack",
                "r1", "failure domain rack=r1 no longer suspect: 1 of 4 nodes not healthy"));
    }

    @Test
    @DisplayName("is off without a failure-domain label and does not touch nodes without a domain")
    void offWithoutLabel() {
        Pool pool = Pool.create().domain("r1", 0, 5).unhealthy(1).healthy(10);
        StormGuard noLabel = Pool.guard(racks().build());
        StormGuard withLabel = guard(racks());

        assertThat(noLabel.admit(pool.candidateIn("r1"), pool.view(), T0).admitted()).isTrue();
        assertThat(withLabel.admit("node-0005", pool.view(), T0).admitted()).isTrue();
        assertThat(withLabel.admit("node-0000", pool.view(), T0).admitted()).isFalse();
    }
}
