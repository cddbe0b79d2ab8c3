package dev.remedy.core.policy;

import dev.remedy.core.storm.PoolView;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Decides whether a remediation may start now (storm protection; see {@link StormGate}). Returns empty to
 * admit, or the reason for holding it back; the controller asks again at its next evaluation.
 */
@FunctionalInterface
public interface AdmissionGate {

    /** Admits everything. */
    AdmissionGate OPEN = (node, policy, pool, now) -> Optional.empty();

    /**
     * Whether {@code node} may start a remedy of {@code policy} now.
     *
     * @param node   the node
     * @param policy the policy
     * @param pool   every node the policy covers: unhealthy, remediating, disconnected, failure domain
     * @param now    the time
     * @return empty to admit; otherwise why not
     */
    Optional<String> holdBack(String node, Policy policy, PoolView pool, Instant now);

    /**
     * The fence-race delay chosen for {@code node} when it was last admitted (base, random and priority delay), to
     * add before its remedy starts. The default is none.
     */
    default Duration raceDelay(String node, Policy policy) {
        return Duration.ZERO;
    }

    /** Sees the pool of {@code policy} at each evaluation (storms start and end even when nobody asks). */
    default void observe(Policy policy, PoolView pool, Instant now) {
    }

    /**
     * This gate and {@code next}: a start is admitted only if both admit it, and the race delay is this gate's.
     * {@code next} is asked first, so that a gate which records what it admits (storm protection counts fences)
     * records only starts that will happen.
     * The way to add checks of your own, such as oVirt's "the host still renews its storage lease, so it is alive":
     * {@code new StormGate(...).and((node, policy, pool, now) -> leases.renewedRecently(node) ? Optional.of("still
     * renews its storage lease") : Optional.empty())}.
     */
    default AdmissionGate and(AdmissionGate next) {
        AdmissionGate first = this;
        return new AdmissionGate() {
            @Override
            public Optional<String> holdBack(String node, Policy policy, PoolView pool, Instant now) {
                Optional<String> held = next.holdBack(node, policy, pool, now);
                return held.isPresent() ? held : first.holdBack(node, policy, pool, now);
            }

            @Override
            public Duration raceDelay(String node, Policy policy) {
                return first.raceDelay(node, policy);
            }

            @Override
            public void observe(Policy policy, PoolView pool, Instant now) {
                first.observe(policy, pool, now);
                next.observe(policy, pool, now);
            }
        };
    }
}
