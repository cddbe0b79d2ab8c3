package dev.remedy.fence.kube.machine;

import dev.remedy.core.rules.MachineRemediationAction;
import dev.remedy.core.rules.MachineRemediationRules;
import dev.remedy.core.rules.MachineRemediationState;
import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Machine remediation by annotation, on real objects: metal3's power-cycle-and-delete design with remedy's
 * {@link MachineRemediationRules}. A Machine ({@code cluster.x-k8s.io}, v1beta1 or v1beta2) annotated
 * {@value MachineRemediationRules#NEEDS_REMEDIATION} names its BareMetalHost ({@code metal3.io/v1alpha1}) in
 * {@value Metal3Objects#HOST_ANNOTATION} ({@code namespace/name}), on itself or, as CAPM3 sets it, on the
 * infrastructure object its {@code spec.infrastructureRef} names (a Metal3Machine; see {@link Metal3Objects#hostRef}),
 * and its Node in {@code status.nodeRef.name}; the
 * driver powers the host off with {@value MachineRemediationRules#REBOOT_ANNOTATION} ({@code {"mode":"hard"}}),
 * deletes the Node while the host reads {@code status.poweredOn: false}, removes the Machine's annotation once the
 * Node is gone, and removes the reboot annotation so that the host powers on again.
 *
 * <p><b>Crash safety.</b> Every {@link #step} reads the Machine, host and Node from the API server, evaluates the rule
 * and makes at most one write, each idempotent; nothing is kept in memory, so a new instance resumes from the
 * annotations alone. "Node ref exists" means the Machine names a Node and that Node exists (Cluster API may keep
 * {@code status.nodeRef} after the Node is deleted). On {@link #start()} and every resync, {@link #sweep()} also
 * visits every host carrying the reboot annotation: one whose Machine is gone, or no longer needs remediation, is
 * released, so no host stays powered off.
 *
 * <p><b>Node deletion</b> goes through {@link KubeClusterOperations#deleteNode}: the Node (labels, annotations, taints,
 * spec) is backed up in a ConfigMap before it is deleted, and the delete is guarded by the backed-up resourceVersion
 * (metal3 also keeps labels and annotations across the deletion). The backup is restored while the host is still held
 * off, as its own write ({@link Write#RESTORE_NODE}) right before the reboot annotation is removed, so the kubelet
 * that boots finds its Node with the administrator's labels and taints.
 *
 * <p><b>Paused and detached hosts</b> ({@value BareMetalHost#PAUSED}, {@value
 * BareMetalHost#DETACHED}): the host operator does not act on them and does not refresh their status, so
 * the driver adds no reboot request to them and deletes no Node on their possibly stale {@code poweredOn}; it does
 * make the removals the rule asks for, and withdraws its own reboot request, so a host is never held off by a
 * remediation that cannot progress. The Machine keeps its annotation: the remediation starts over once the host is
 * managed again.
 *
 * <p><b>Threads.</b> Informer events only queue work; one thread of the driver runs the steps. {@link #step},
 * {@link #converge} and {@link #sweep} may also be called directly (they block on API calls only).
 */
public final class MachineRemediationDriver implements AutoCloseable {

    /** The default informer resync period, which is also the period of {@link #sweep()}. */
    public static final Duration DEFAULT_RESYNC = Duration.ofMinutes(1);
    /** The most steps {@link #converge} makes in one call. */
    public static final int MAX_STEPS = 6;

    private static final Logger LOG = LoggerFactory.getLogger(MachineRemediationDriver.class);
    private static final String SWEEP = "";

    /** One write of the protocol. */
    public enum Write {
        /** The reboot annotation was put on the host. */
        ADD_REBOOT_ANNOTATION,
        /** The Node was backed up and deleted. */
        DELETE_NODE,
        /** The Machine's needs-remediation annotation was removed. */
        REMOVE_NEEDS_REMEDIATION_ANNOTATION,
        /** The Node was re-created from its backup while the host is still held off. */
        RESTORE_NODE,
        /** The reboot annotation was removed from the host. */
        REMOVE_REBOOT_ANNOTATION
    }

    private final Metal3Objects objects;
    private final KubeClusterOperations cluster;
    private final String backupNamespace;
    private final Duration resync;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService executor;
    private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();

    private MachineRemediationDriver(Builder b) {
        this.objects = new Metal3Objects(b.client, b.machineVersion);
        this.backupNamespace = b.backupNamespace;
        this.cluster = KubeClusterOperations.builder(b.client).backupNamespace(b.backupNamespace).build();
        this.resync = b.resync;
    }

    /** A builder on {@code client}. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /**
     * Evaluates one Machine from fresh reads and makes at most one write.
     *
     * @return the write made; empty when the rule asks for nothing (or the Machine or its host is missing)
     * @throws IllegalStateException when the API server refuses a read or a write (retried on the next evaluation)
     */
    public Optional<Write> step(String namespace, String name) {
        GenericKubernetesResource machine = objects.machine(namespace, name);
        if (machine == null) {
            return Optional.empty();
        }
        GenericKubernetesResource host = objects.hostOf(machine);
        if (host == null) {
            if (Metal3Objects.annotation(machine, MachineRemediationRules.NEEDS_REMEDIATION) != null) {
                LOG.warn("Machine {}/{} needs remediation but names no existing BareMetalHost in annotation {} (on "
                        + "itself or its spec.infrastructureRef object); nothing to power off", namespace, name,
                        Metal3Objects.HOST_ANNOTATION);
            }
            return Optional.empty();
        }
        Optional<String> nodeName = Metal3Objects.nodeName(machine);
        MachineRemediationState state = new MachineRemediationState(
                nodeName.map(objects::node).isPresent(),
                Metal3Objects.annotation(machine, MachineRemediationRules.NEEDS_REMEDIATION) != null,
                Metal3Objects.poweredOn(host),
                Metal3Objects.annotation(host, MachineRemediationRules.REBOOT_ANNOTATION) != null);
        Optional<MachineRemediationAction> action = MachineRemediationRules.decide(state).stream().findFirst();
        if (Metal3Objects.unmanaged(host)) {
            action = unmanaged(action, state, namespace + "/" + name);
        }
        if (action.isEmpty()) {
            return Optional.empty();
        }
        Write write = apply(action.get(), machine, host, nodeName, state);
        LOG.info("Machine {}/{} ({}): {}", namespace, name, bits(state), write);
        return Optional.of(write);
    }

    /**
     * {@link #step}s one Machine until a step finds nothing to do, at most {@value #MAX_STEPS} times (the host
     * powering off or on is not waited for: the host's change brings the next evaluation).
     *
     * @return the writes made, in order
     */
    public List<Write> converge(String namespace, String name) {
        List<Write> writes = new ArrayList<>();
        for (int i = 0; i < MAX_STEPS; i++) {
            Optional<Write> write = step(namespace, name);
            if (write.isEmpty()) {
                break;
            }
            writes.add(write.get());
        }
        return writes;
    }

    /**
     * Visits every Machine that needs remediation and every host carrying the reboot annotation: a host whose Machine
     * is gone is released, the others are {@link #converge}d through their Machine.
     *
     * @return how many writes were made
     */
    public int sweep() {
        List<GenericKubernetesResource> machines = list(objects.machineKind().getKind(),
                () -> objects.client().genericKubernetesResources(objects.machineKind()).inAnyNamespace().list()
                        .getItems());
        List<GenericKubernetesResource> hosts = list(BareMetalHost.RESOURCE.getKind(),
                () -> objects.client().genericKubernetesResources(BareMetalHost.RESOURCE).inAnyNamespace().list()
                        .getItems());
        Set<String> claimed = new HashSet<>();
        int writes = 0;
        for (GenericKubernetesResource m : machines) {
            Optional<String[]> ref = objects.hostRef(m);
            ref.ifPresent(r -> claimed.add(r[0] + "/" + r[1]));
            boolean needs = Metal3Objects.annotation(m, MachineRemediationRules.NEEDS_REMEDIATION) != null;
            if (needs || holdsOff(ref, hosts)) {
                writes += converge(m.getMetadata().getNamespace(), m.getMetadata().getName()).size();
            }
        }
        for (GenericKubernetesResource h : hosts) {
            String key = h.getMetadata().getNamespace() + "/" + h.getMetadata().getName();
            if (!claimed.contains(key)
                    && Metal3Objects.annotation(h, MachineRemediationRules.REBOOT_ANNOTATION) != null) {
                // the design's rows 0 0 - 1 with the Machine gone: release the host
                objects.annotate(BareMetalHost.RESOURCE, h, MachineRemediationRules.REBOOT_ANNOTATION, null);
                LOG.info("BareMetalHost {}: released (no Machine names it any more)", key);
                writes++;
            }
        }
        return writes;
    }

    /** Starts the informers on Machines and BareMetalHosts, and the periodic {@link #sweep()} (first one at once). */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("the machine-remediation driver is already started");
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "remedy-machine-remediation");
            t.setDaemon(true);
            return t;
        });
        SharedIndexInformer<GenericKubernetesResource> machines = objects.client()
                .genericKubernetesResources(objects.machineKind()).inAnyNamespace()
                .inform(handler(m -> enqueue(key(m))), resync.toMillis());
        informers.add(machines);
        informers.add(objects.client().genericKubernetesResources(BareMetalHost.RESOURCE).inAnyNamespace()
                .inform(handler(h -> hostChanged(h, machines.getStore().list())), resync.toMillis()));
        executor.scheduleWithFixedDelay(() -> enqueue(SWEEP), 0, resync.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("machine remediation by annotation started: Machines {}/{}, resync {}",
                objects.machineKind().getGroup(), objects.machineKind().getVersion(), resync);
    }

    /** Stops the informers and the driver's thread. */
    @Override
    public synchronized void close() {
        informers.forEach(SharedIndexInformer::close);
        informers.clear();
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    private Optional<MachineRemediationAction> unmanaged(Optional<MachineRemediationAction> action,
            MachineRemediationState state, String machine) {
        if (action.filter(a -> a == MachineRemediationAction.REMOVE_NEEDS_REMEDIATION_ANNOTATION
                || a == MachineRemediationAction.REMOVE_REBOOT_ANNOTATION).isPresent()) {
            return action;
        }
        if (state.rebootAnnotation()) {
            LOG.warn("Machine {}: its BareMetalHost is paused or detached; remedy withdraws its reboot request and "
                    + "starts over once the host is managed again", machine);
            return Optional.of(MachineRemediationAction.REMOVE_REBOOT_ANNOTATION);
        }
        action.ifPresent(a -> LOG.warn("Machine {}: its BareMetalHost is paused or detached, so {} waits until the "
                + "host is managed again (remove {} / {})", machine, a, BareMetalHost.PAUSED,
                BareMetalHost.DETACHED));
        return Optional.empty();
    }

    private Write apply(MachineRemediationAction action, GenericKubernetesResource machine,
            GenericKubernetesResource host, Optional<String> nodeName, MachineRemediationState state) {
        switch (action) {
            case ADD_REBOOT_ANNOTATION:
                objects.annotate(BareMetalHost.RESOURCE, host, MachineRemediationRules.REBOOT_ANNOTATION,
                        MachineRemediationRules.REBOOT_ANNOTATION_VALUE);
                return Write.ADD_REBOOT_ANNOTATION;
            case DELETE_NODE:
                // the rule gives DELETE_NODE only for a host read off just now and held off by the annotation
                cluster.deleteNode(nodeName.orElseThrow());
                return Write.DELETE_NODE;
            case REMOVE_NEEDS_REMEDIATION_ANNOTATION:
                objects.annotate(objects.machineKind(), machine, MachineRemediationRules.NEEDS_REMEDIATION, null);
                return Write.REMOVE_NEEDS_REMEDIATION_ANNOTATION;
            case REMOVE_REBOOT_ANNOTATION:
                if (!state.needsRemediation() && nodeName.filter(this::backedUp).isPresent()) {
                    cluster.restoreNode(nodeName.get());
                    return Write.RESTORE_NODE;
                }
                objects.annotate(BareMetalHost.RESOURCE, host, MachineRemediationRules.REBOOT_ANNOTATION, null);
                return Write.REMOVE_REBOOT_ANNOTATION;
            default:
                throw new IllegalStateException("no write for " + action);
        }
    }

    private boolean backedUp(String node) {
        try {
            return objects.client().configMaps().inNamespace(backupNamespace)
                    .withName(KubeClusterOperations.backupName(node)).get() != null;
        } catch (KubernetesClientException e) {
            throw Metal3Objects.failure("read the backup of node " + node, e);
        }
    }

    private static boolean holdsOff(Optional<String[]> hostRef, List<GenericKubernetesResource> hosts) {
        return hostRef.flatMap(ref -> hosts.stream()
                .filter(h -> ref[0].equals(h.getMetadata().getNamespace()) && ref[1].equals(h.getMetadata().getName()))
                .findFirst())
                .map(h -> Metal3Objects.annotation(h, MachineRemediationRules.REBOOT_ANNOTATION) != null)
                .orElse(false);
    }

    private static List<GenericKubernetesResource> list(String kind,
            Supplier<List<GenericKubernetesResource>> lister) {
        try {
            return lister.get();
        } catch (KubernetesClientException e) {
            throw Metal3Objects.failure("list " + kind + "s", e);
        }
    }

    /**
     * A host changed: the Machines naming it in their own annotation are evaluated; when none does, a sweep runs if
     * the host is held off or a Machine may name it through its infrastructure object (which only the sweep reads,
     * off the informer's thread).
     */
    private void hostChanged(GenericKubernetesResource host, List<GenericKubernetesResource> machines) {
        String namespace = host.getMetadata().getNamespace();
        String name = host.getMetadata().getName();
        boolean named = false;
        boolean indirect = false;
        for (GenericKubernetesResource m : machines) {
            Optional<String[]> own = Metal3Objects.ownHostRef(m);
            if (own.filter(ref -> ref[0].equals(namespace) && ref[1].equals(name)).isPresent()) {
                named = true;
                enqueue(key(m));
            }
            indirect |= own.isEmpty() && Metal3Objects.hasInfrastructureRef(m);
        }
        if (!named && (indirect || Metal3Objects.annotation(host, MachineRemediationRules.REBOOT_ANNOTATION) != null)) {
            enqueue(SWEEP);
        }
    }

    private static String key(GenericKubernetesResource machine) {
        return machine.getMetadata().getNamespace() + "/" + machine.getMetadata().getName();
    }

    private void enqueue(String key) {
        ScheduledExecutorService current = executor;
        if (current == null || !queued.add(key)) {
            return;
        }
        current.execute(() -> {
            queued.remove(key);
            try {
                if (key.equals(SWEEP)) {
                    sweep();
                } else {
                    int slash = key.indexOf('/');
                    converge(key.substring(0, slash), key.substring(slash + 1));
                }
            } catch (RuntimeException e) {
                LOG.warn("machine remediation {}: {}", key.isEmpty() ? "sweep" : key, e.getMessage(), e);
            }
        });
    }

    private static ResourceEventHandler<GenericKubernetesResource> handler(
            Consumer<GenericKubernetesResource> onChange) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource obj) {
                onChange.accept(obj);
            }

            @Override
            public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                onChange.accept(newObj);
            }

            @Override
            public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                onChange.accept(obj);
            }
        };
    }

    private static String bits(MachineRemediationState s) {
        return "N" + (s.nodeRefExists() ? 1 : 0) + " R" + (s.needsRemediation() ? 1 : 0) + " P"
                + (s.poweredOn() ? 1 : 0) + " A" + (s.rebootAnnotation() ? 1 : 0);
    }

    /** Builds a {@link MachineRemediationDriver}. */
    public static final class Builder {
        private final KubernetesClient client;
        private String machineVersion = "v1beta1";
        private String backupNamespace = KubeClusterOperations.DEFAULT_BACKUP_NAMESPACE;
        private Duration resync = DEFAULT_RESYNC;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** The Cluster API version the Machines are read in: {@code v1beta1} (default) or {@code v1beta2}. */
        public Builder machineVersion(String version) {
            Metal3Objects.machines(version);
            machineVersion = version;
            return this;
        }

        /** The namespace of the node backups (default {@value KubeClusterOperations#DEFAULT_BACKUP_NAMESPACE}). */
        public Builder backupNamespace(String namespace) {
            backupNamespace = Objects.requireNonNull(namespace, "backupNamespace");
            return this;
        }

        /** The informers' resync and sweep period: at least 1 s (default 1 min). */
        public Builder resync(Duration period) {
            Objects.requireNonNull(period, "resync");
            if (period.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("resync: must be at least 1s, was " + period);
            }
            resync = period;
            return this;
        }

        /** The driver, not started. */
        public MachineRemediationDriver build() {
            return new MachineRemediationDriver(this);
        }
    }
}
