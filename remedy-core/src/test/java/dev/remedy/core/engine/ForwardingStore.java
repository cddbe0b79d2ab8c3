package dev.remedy.core.engine;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceStateStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A store that hands everything to another; tests override {@link #save} to make it fail or crash. */
class ForwardingStore implements FenceStateStore {

    private final FenceStateStore backing;

    ForwardingStore(FenceStateStore backing) {
        this.backing = backing;
    }

    @Override
    public Optional<NodeFence> load(String node) {
        return backing.load(node);
    }

    @Override
    public List<NodeFence> loadAll() {
        return backing.loadAll();
    }

    @Override
    public NodeFence save(NodeFence record) {
        return backing.save(record);
    }

    @Override
    public void delete(String node) {
        backing.delete(node);
    }

    @Override
    public Map<String, String> lostRecords() {
        return backing.lostRecords();
    }

    @Override
    public List<String> problems() {
        return backing.problems();
    }
}
