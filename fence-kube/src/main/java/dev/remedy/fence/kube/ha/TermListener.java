package dev.remedy.fence.kube.ha;

import dev.remedy.core.engine.FenceEngine;

/**
 * Told when a term of leadership starts and ends, on {@link ShardLeadership}'s lifecycle thread: what a host runs only
 * while it leads (the policy controller and its Node informer) starts with the term's engine and stops before the
 * engine closes. A listener that throws is logged; the term goes on.
 */
public interface TermListener {

    /** Nothing to tell. */
    TermListener NONE = new TermListener() {
        @Override
        public void started(FenceEngine engine, LeaseGuard guard) {
        }

        @Override
        public void ended(FenceEngine engine) {
        }
    };

    /** The term's engine has started; {@code guard} says whether this process may still act. */
    void started(FenceEngine engine, LeaseGuard guard);

    /** The term ends: {@code engine} is closed right after this returns. */
    void ended(FenceEngine engine);
}
