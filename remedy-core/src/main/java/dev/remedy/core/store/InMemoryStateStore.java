package dev.remedy.core.store;

import dev.remedy.core.flow.NodeFence;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link FenceStateStore} in memory: for tests, simulations and engines that need no crash safety. */
public final class InMemoryStateStore implements FenceStateStore {

    private final Map<String, NodeFence> records = new ConcurrentHashMap<>();

    @Override
    public Optional<NodeFence> load(String node) {
        return Optional.ofNullable(records.get(node));
    }

    @Override
    public List<NodeFence> loadAll() {
        return List.copyOf(records.values());
    }

    @Override
    public NodeFence save(NodeFence record) {
        NodeFence[] saved = new NodeFence[1];
        records.compute(record.node(), (node, stored) -> {
            long found = stored == null ? 0 : stored.version();
            if (found != record.version()) {
                throw new StaleRecordException(node, record.version(), found);
            }
            saved[0] = record.withVersion(record.version() + 1);
            return saved[0];
        });
        return saved[0];
    }

    @Override
    public void delete(String node) {
        records.remove(node);
    }
}
