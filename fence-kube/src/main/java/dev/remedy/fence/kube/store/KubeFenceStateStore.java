package dev.remedy.fence.kube.store;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.StaleRecordException;
import dev.remedy.core.store.StateStoreException;
import dev.remedy.fence.kube.store.internal.RecordResources;
import dev.remedy.fence.kube.store.internal.RecordResources.Reading;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FenceStateStore} keeping each node's record in a cluster-scoped {@link NodeFenceResource} named like the
 * node, on the host's {@link KubernetesClient}. The NodeFence CRD must be installed ({@link NodeFenceCrd}).
 *
 * <p><b>Compare-and-set.</b> {@link #save} reads the NodeFence, compares the version of the record it holds with the
 * record's version (no NodeFence: version 0) and then writes: a create when there was none (AlreadyExists, 409, is
 * a {@link StaleRecordException}), otherwise a PUT of the object it read, carrying that object's resourceVersion,
 * so the API server refuses it (409) if anything changed in between. Never a write without a resourceVersion. On
 * a 409 the store reads again: if the stored record's version moved, the save is stale; if only metadata changed
 * (an admin annotated or labelled the NodeFence), it writes again on the fresh object, at most
 * {@value #MAX_WRITES} times. The PUT starts from the live object, so labels, annotations and finalizers that
 * others wrote are kept; only {@code spec} is replaced.
 *
 * <p><b>No owner reference.</b> The store never sets one: deleting the Node is a release strategy, and the record
 * that says how to restore it must survive that (see {@link NodeFenceResource}).
 *
 * <p><b>Unreadable NodeFences.</b> A NodeFence whose {@code spec.record} is missing, not a fence record of a format
 * this version reads, or names another node is never dropped silently: {@link #lostRecords()} names its node with
 * why and {@link #problems()} says what to do, so that the engine holds the node for an admin. It counts as "no
 * record" for {@link #save}: only a record with version 0 replaces it (the old document is logged at WARN first).
 * A node leaves {@link #lostRecords()} when its record is saved or deleted, or its NodeFence reads well or is gone.
 *
 * <p>Thread-safe; every method blocks on one or more API calls (bounded by the client's request timeouts).
 * {@link #loadAll()} lists in pages of {@link #pageSize()} objects.
 */
public final class KubeFenceStateStore implements FenceStateStore {

    /** How many NodeFences a list request asks for at most. */
    public static final int DEFAULT_PAGE_SIZE = 250;

    /** How many PUTs a save tries when only the NodeFence's metadata changed in between. */
    static final int MAX_WRITES = 5;

    private static final Logger LOG = LoggerFactory.getLogger(KubeFenceStateStore.class);
    private static final int HTTP_GONE = 410;
    private static final int MAX_LIST_RESTARTS = 3;
    private static final int EXCERPT = 8192;

    private final KubernetesClient client;
    private final int pageSize;
    private final Map<String, String> lost = new ConcurrentHashMap<>();

    /** A store on {@code client} listing {@value #DEFAULT_PAGE_SIZE} NodeFences per page. */
    public KubeFenceStateStore(KubernetesClient client) {
        this(client, DEFAULT_PAGE_SIZE);
    }

    /**
     * A store on {@code client} listing {@code pageSize} NodeFences per page.
     *
     * @throws IllegalArgumentException if {@code pageSize} is not positive
     */
    public KubeFenceStateStore(KubernetesClient client, int pageSize) {
        this.client = Objects.requireNonNull(client, "client");
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize is " + pageSize + "; give at least 1");
        }
        this.pageSize = pageSize;
    }

    /** How many NodeFences a list request asks for at most. */
    public int pageSize() {
        return pageSize;
    }

    /**
     * {@inheritDoc}
     *
     * @throws StateStoreException if the API server cannot be read
     */
    @Override
    public Optional<NodeFence> load(String node) {
        NodeFenceResource live = get(node);
        if (live == null) {
            lost.remove(node);
            return Optional.empty();
        }
        return remember(node, live);
    }

    /**
     * {@inheritDoc}
     *
     * @throws StateStoreException if the API server cannot be read
     */
    @Override
    public List<NodeFence> loadAll() {
        for (int restart = 0; ; restart++) {
            try {
                return listAll();
            } catch (KubernetesClientException e) {
                if (e.getCode() != HTTP_GONE || restart == MAX_LIST_RESTARTS) {
                    throw failure("list the NodeFences", null, e);
                }
                LOG.info("Listing NodeFences again from the start: the continue token expired ({})", e.getMessage());
            }
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws StaleRecordException if the stored record's version differs from the record's, or the NodeFence kept
     *                              changing under {@value #MAX_WRITES} writes
     * @throws StateStoreException  if the API server refuses otherwise (no CRD, no permission, unreachable)
     */
    @Override
    public NodeFence save(NodeFence record) {
        String node = record.node();
        long expected = record.version();
        long found = 0;
        for (int write = 1; write <= MAX_WRITES; write++) {
            NodeFenceResource live = get(node);
            if (live == null) {
                if (expected != 0) {
                    throw new StaleRecordException(node, expected, 0);
                }
                return create(record);
            }
            Reading reading = RecordResources.read(live);
            found = reading.record().map(NodeFence::version).orElse(0L);
            if (found != expected) {
                throw new StaleRecordException(node, expected, found);
            }
            if (reading.corrupt()) {
                LOG.warn("Replacing the unreadable NodeFence '{}' ({}) with version 1 of its record; its spec.record "
                        + "was: {}", node, reading.problem(), RecordResources.excerpt(live, EXCERPT));
            }
            warnIfOwnedByNode(live);
            NodeFence saved = record.withVersion(expected + 1);
            live.setSpec(RecordResources.spec(saved));
            if (update(live)) {
                lost.remove(node);
                return saved;
            }
            LOG.debug("NodeFence '{}' changed since it was read (write {} of {}); reading it again", node, write,
                    MAX_WRITES);
        }
        throw new StaleRecordException(node, expected, found);
    }

    /**
     * {@inheritDoc}
     *
     * @throws StateStoreException if the API server refuses the delete
     */
    @Override
    public void delete(String node) {
        try {
            resource(node).delete();
        } catch (KubernetesClientException e) {
            throw failure("delete", node, e);
        }
        lost.remove(node);
    }

    /** {@inheritDoc} */
    @Override
    public Map<String, String> lostRecords() {
        return Map.copyOf(lost);
    }

    /** {@inheritDoc} One sentence per unreadable NodeFence: which, why, and what to do. */
    @Override
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        new TreeMap<>(lost).forEach((node, why) -> out.add("NodeFence '" + node + "' cannot be read: " + why
                + "; node '" + node + "' is held for an admin: inspect it with kubectl get nodefence " + node
                + " -o yaml, then repair spec.record or delete the NodeFence"));
        return List.copyOf(out);
    }

    @Override
    public String toString() {
        return "KubeFenceStateStore[" + client.getMasterUrl() + "]";
    }

    private List<NodeFence> listAll() {
        List<NodeFence> records = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String next = null;
        do {
            KubernetesResourceList<NodeFenceResource> page = resources().list(new ListOptionsBuilder()
                    .withLimit((long) pageSize).withContinue(next).build());
            for (NodeFenceResource item : page.getItems()) {
                String node = item.getMetadata().getName();
                seen.add(node);
                remember(node, item).ifPresent(records::add);
            }
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        lost.keySet().retainAll(seen);
        return List.copyOf(records);
    }

    /** The record of {@code live}, keeping {@link #lost} up to date. */
    private Optional<NodeFence> remember(String node, NodeFenceResource live) {
        Reading reading = RecordResources.read(live);
        if (reading.corrupt()) {
            if (lost.put(node, reading.problem()) == null) {
                LOG.warn("NodeFence '{}' cannot be read: {}; its node is held for an admin", node, reading.problem());
            }
        } else {
            lost.remove(node);
        }
        return reading.record();
    }

    private NodeFence create(NodeFence record) {
        String node = record.node();
        NodeFence saved = record.withVersion(1);
        try {
            resources().resource(RecordResources.newResource(saved)).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                throw new StaleRecordException(node, 0, storedVersion(node));
            }
            throw failure("create", node, e);
        }
        lost.remove(node);
        return saved;
    }

    /** PUTs {@code live}, guarded by its resourceVersion; false on a conflict (409). */
    private boolean update(NodeFenceResource live) {
        String node = live.getMetadata().getName();
        if (live.getMetadata().getResourceVersion() == null) {
            throw new StateStoreException("NodeFence '" + node + "' came back from the API server without a "
                    + "resourceVersion, so it cannot be replaced safely; nothing was written");
        }
        try {
            resources().resource(live).update();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false;
            }
            throw failure("update", node, e);
        }
    }

    /** The version stored for {@code node} now (0 if none or unreadable), for the message of a lost race. */
    private long storedVersion(String node) {
        try {
            NodeFenceResource live = get(node);
            return live == null ? 0 : RecordResources.read(live).record().map(NodeFence::version).orElse(0L);
        } catch (StateStoreException e) {
            return 0;
        }
    }

    private NodeFenceResource get(String node) {
        try {
            return resource(node).get();
        } catch (KubernetesClientException e) {
            throw failure("read", node, e);
        }
    }

    private static void warnIfOwnedByNode(NodeFenceResource live) {
        List<OwnerReference> owners = live.getMetadata().getOwnerReferences();
        if (owners != null && owners.stream().anyMatch(o -> "Node".equals(o.getKind()))) {
            LOG.warn("NodeFence '{}' has an owner reference to a Node, which remedy never sets: deleting the Node "
                    + "would delete the record that says how to restore it; remove that owner reference",
                    live.getMetadata().getName());
        }
    }

    private MixedOperation<NodeFenceResource, KubernetesResourceList<NodeFenceResource>, Resource<NodeFenceResource>>
            resources() {
        return client.resources(NodeFenceResource.class);
    }

    private Resource<NodeFenceResource> resource(String node) {
        return resources().withName(node);
    }

    private static StateStoreException failure(String what, String node, KubernetesClientException e) {
        String object = node == null ? "" : " of node '" + node + "'";
        String hint = switch (e.getCode()) {
            case HttpURLConnection.HTTP_NOT_FOUND -> "; is the NodeFence CRD installed? Apply "
                    + "deploy/crds/nodefences.remedy.dev-v1.yml or let the operator apply it (NodeFenceCrd.apply)";
            case HttpURLConnection.HTTP_FORBIDDEN, HttpURLConnection.HTTP_UNAUTHORIZED -> "; give remedy's service "
                    + "account get, list, create, update and delete on nodefences.remedy.dev";
            default -> "; the record may or may not have been written: reload before retrying";
        };
        String verb = node == null ? what : what + " the NodeFence" + object;
        return new StateStoreException("could not " + verb + " (HTTP " + e.getCode() + "): " + e.getMessage() + hint,
                e);
    }
}
