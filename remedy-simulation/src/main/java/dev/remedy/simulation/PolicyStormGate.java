package dev.remedy.simulation;

import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.StormGate;
import dev.remedy.core.storm.PoolView;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormSignal;
import dev.remedy.simulation.TimelineEntry.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Each policy's own storm protection ({@link Policy#storm()}) through core's {@link StormGate}, with a seeded random
 * generator (deterministic), no quiet period (the simulated engine has been running for long), and its storm and
 * failure-domain signals written to the timeline: the node column names the pool ({@code pool}) or the domain
 * ({@code rack=r1}). Reasons read {@code refused (rule): detail} or {@code held (rule): detail}.
 */
final class PolicyStormGate implements ClassifiedGate {

    private static final String SHARED = "refused (shared_infrastructure)";

    private final StormGate gate;

    PolicyStormGate(TimelineRecorder recorder, Instant start) {
        this.gate = new StormGate(new SplittableRandom(42), QuorumGuard.oneAtATime(),
                signal -> record(recorder, signal), start.minus(Duration.ofDays(1)));
    }

    @Override
    public Optional<String> holdBack(String node, Policy policy, PoolView pool, Instant now) {
        return gate.holdBack(node, policy, pool, now);
    }

    @Override
    public void observe(Policy policy, PoolView pool, Instant now) {
        gate.observe(policy, pool, now);
    }

    @Override
    public Kind kindOf(String reason) {
        return reason.startsWith(SHARED) ? Kind.SHARED_INFRASTRUCTURE
                : reason.startsWith("refused") ? Kind.REFUSED : Kind.HELD;
    }

    private static void record(TimelineRecorder recorder, StormSignal signal) {
        if (signal instanceof StormSignal.StormStarted started) {
            recorder.record(started.at(), "pool", Kind.STORM_STARTED, "", started.detail());
        } else if (signal instanceof StormSignal.StormEnded ended) {
            recorder.record(ended.at(), "pool", Kind.STORM_ENDED, "", ended.detail());
        } else if (signal instanceof StormSignal.SharedInfrastructureSuspected suspected) {
            recorder.record(suspected.at(), suspected.label() + "=" + suspected.value(), Kind.DOMAIN_SUSPECTED, "",
                    suspected.detail());
        } else if (signal instanceof StormSignal.SharedInfrastructureCleared cleared) {
            recorder.record(cleared.at(), cleared.label() + "=" + cleared.value(), Kind.DOMAIN_CLEARED, "",
                    cleared.detail());
        }
    }
}
