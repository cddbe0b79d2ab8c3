package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.FenceEngine;

/**
 * Builds the engine of one term of leadership; {@link ShardLeadership} starts it when the term begins and closes
 * it when the term ends. A new engine per term: it reloads every record from the store, which the previous leader
 * may have changed.
 */
@FunctionalInterface
public interface EngineFactory {

    /**
     * The engine of a new term (built, not started), every effect fenced by {@code guard}; typically
     * {@code guard.fence(FenceEngine.builder(), store, cluster).agents(agents).plans(plans).build()}.
     *
     * @param guard whether this process may act, for this term only
     * @return the engine
     */
    FenceEngine create(LeaseGuard guard);
}
