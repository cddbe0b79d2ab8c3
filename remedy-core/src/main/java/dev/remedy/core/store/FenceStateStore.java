package dev.remedy.core.store;

import dev.remedy.core.flow.NodeFence;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Persistent fence records, one per node, with optimistic concurrency: {@link #save} succeeds only if the stored
 * version equals the record's version (or there is no stored record and the version is 0), and stores the record
 * with version + 1. Implementations are thread-safe.
 */
public interface FenceStateStore {

    /** The record of {@code node}, if any. */
    Optional<NodeFence> load(String node);

    /** Every record (corrupt ones are reported by {@link #problems()}, never silently dropped). */
    List<NodeFence> loadAll();

    /**
     * Saves {@code record} and returns it with its new version.
     *
     * @throws StaleRecordException if the stored version differs from the record's
     */
    NodeFence save(NodeFence record);

    /** Removes the record of {@code node}, if any. */
    void delete(String node);

    /**
     * Nodes that have a record this store can read in no version (corrupt, with no good earlier version), each
     * with why. Their flows are unknown: the engine holds them for an admin. A node leaves this map when its
     * record is saved or deleted.
     */
    default Map<String, String> lostRecords() {
        return Map.of();
    }

    /** Records that could not be read, with what was done with them. */
    default List<String> problems() {
        return List.of();
    }
}
