package dev.remedy.fence.kube.ha;

import dev.remedy.core.store.StateStoreException;
import java.util.Objects;

/**
 * An effect was refused because this process does not hold its shard's Lease as of now. A
 * {@link StateStoreException}, so that the engine treats a refused save as a record it could not save (the flow
 * waits where it was and nothing runs), and a refused cluster call as a failed operation.
 */
public class NotLeaderException extends StateStoreException {

    private final String identity;
    private final String lease;

    /**
     * An exception naming what was refused and why.
     *
     * @param identity this process's identity
     * @param lease    the Lease, as {@code namespace/name}
     * @param message  what was refused, why, and what happens instead
     */
    public NotLeaderException(String identity, String lease, String message) {
        super(message);
        this.identity = Objects.requireNonNull(identity, "identity");
        this.lease = Objects.requireNonNull(lease, "lease");
    }

    /** This process's identity (its pod name). */
    public String identity() {
        return identity;
    }

    /** The shard's Lease, as {@code namespace/name}. */
    public String lease() {
        return lease;
    }
}
