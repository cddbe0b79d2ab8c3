package dev.remedy.core.policy;

import dev.remedy.core.storm.Admission;
import dev.remedy.core.storm.PoolView;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormGuard;
import dev.remedy.core.storm.StormListener;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Storm protection for the {@link PolicyController}: one {@link StormGuard} per policy, built from the policy's
 * storm settings, started at the time given (its quiet period runs from then). Every refusal or hold names its
 * rule and what was counted. Not thread-safe, like the controller.
 */
public final class StormGate implements AdmissionGate {

    private final RandomGenerator random;
    private final QuorumGuard quorum;
    private final StormListener listener;
    private final Instant started;
    private final Map<String, StormGuard> guards = new HashMap<>();
    private final Map<String, Duration> delays = new HashMap<>();

    /**
     * A gate.
     *
     * @param random   source of the random fence-race delay
     * @param quorum   consulted before a control-plane node is fenced
     * @param listener receives storm, shared-infrastructure and denial signals
     * @param started  when the engine started (the quiet period runs from then)
     */
    public StormGate(RandomGenerator random, QuorumGuard quorum, StormListener listener, Instant started) {
        this.random = Objects.requireNonNull(random, "random");
        this.quorum = Objects.requireNonNull(quorum, "quorum");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.started = Objects.requireNonNull(started, "started");
    }

    @Override
    public Optional<String> holdBack(String node, Policy policy, PoolView pool, Instant now) {
        Admission admission = guard(policy).admitAndRecord(node, pool, now);
        if (admission instanceof Admission.Denied denied) {
            String verdict = admission instanceof Admission.Refused ? "refused" : "held";
            return Optional.of(verdict + " (" + denied.reason().name().toLowerCase(Locale.ROOT) + "): "
                    + denied.detail());
        }
        delays.put(node, ((Admission.Admitted) admission).raceDelay());
        return Optional.empty();
    }

    @Override
    public Duration raceDelay(String node, Policy policy) {
        Duration delay = delays.remove(node);
        return delay == null ? Duration.ZERO : delay;
    }

    @Override
    public void observe(Policy policy, PoolView pool, Instant now) {
        guard(policy).observe(pool, now);
    }

    /** The guard of {@code policy}, for inspection (storm state, suspected domains). */
    public StormGuard guard(Policy policy) {
        return guards.computeIfAbsent(policy.name(), name -> {
            StormGuard guard = new StormGuard(policy.storm(), random, quorum, listener);
            guard.started(started);
            return guard;
        });
    }
}
