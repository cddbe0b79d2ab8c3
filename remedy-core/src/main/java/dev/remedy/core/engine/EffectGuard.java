package dev.remedy.core.engine;

import dev.remedy.core.flow.Effect;
import java.util.Optional;

/**
 * Asked by the engine right before it runs each effect (an agent action or a cluster action), after the effect's
 * record was saved: a refusal means the effect is not run. Nothing is recorded for a refused effect; its operation
 * stays in flight in the node's record, exactly as if the process had stopped before running it, so the engine that
 * holds the record next issues it again ({@link FenceEngine#start()} re-issues in-flight operations; a running engine
 * counts it lost after its budget and grace and retries it).
 *
 * <p>The hook for effects that only some process may run, such as fence-kube's Lease-fenced high availability: a
 * standby's engine, or a leader's that can no longer prove it holds its lease, must not touch a machine.
 *
 * <p>Called on the engine's threads, once per effect; must be fast and must not block. A guard that throws refuses.
 */
@FunctionalInterface
public interface EffectGuard {

    /** Lets every effect run: the engine's default. */
    EffectGuard ALLOW_ALL = effect -> Optional.empty();

    /**
     * Whether {@code effect} may run now.
     *
     * @param effect the effect about to run
     * @return empty to run it; otherwise why it must not (logged with the effect)
     */
    Optional<String> refusal(Effect effect);
}
