package dev.remedy.fence.kube.machine;

import dev.remedy.core.rules.EscalateRemediation;
import dev.remedy.core.rules.EscalateStrategy;
import dev.remedy.core.rules.MachineRemediationRules;
import dev.remedy.core.rules.RebootRequests;
import dev.remedy.core.rules.RemediationAction;
import dev.remedy.core.rules.RemediationObservation;
import dev.remedy.core.rules.RemediationPhase;
import dev.remedy.core.rules.RemediationStatus;
import dev.remedy.core.rules.RemediationStep;
import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.machine.internal.EscalateStatusCodec;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@code escalate} strategy ({@link EscalateRemediation}) on a remediation object of any kind whose
 * {@code spec.strategy} asks for it, nested ({@code strategy: {type: escalate, deleteAfterRetries: 1, ...}}) or flat
 * as in the Cluster API external-remediation proposal ({@code strategy: escalate, deleteAfterRetries: 1,
 * powerOnTimeoutSeconds: 600, powerOffTimeoutSeconds: 300}).
 *
 * <p>The object's Machine is its owner of kind {@code Machine}, else the Machine of the same name and namespace; the
 * Machine names its BareMetalHost ({@value Metal3Objects#HOST_ANNOTATION}, on itself or on the infrastructure object
 * of its {@code spec.infrastructureRef}, see {@link Metal3Objects#hostRef}) and its Node ({@code status.nodeRef}).
 * Each {@link #reconcile} reads everything fresh, evaluates one step, writes {@code status.phase},
 * {@code status.retryCount}, {@code status.phaseSince} and the conditions {@code Processing}, {@code Succeeded} and
 * {@code PermanentNodeDeletionExpected} through the status subresource <em>first</em>, and only then runs the step's
 * actions: the keyed hard reboot request {@link #rebootAnnotation(String) reboot.metal3.io/remedy-escalate-&lt;uid&gt;}
 * added to or removed from the host, or the Machine deleted. A crash between the two is repaired by the next
 * reconcile, which repeats the action of the persisted phase. Once the remediation is over (any terminal phase), or
 * its object is being deleted, the reboot request is removed from every host that carries it, so a host is never
 * left held off; a paused or detached host never reports off, so its remediation fails on the power-off timeout and
 * is released.
 *
 * <p><b>Deleted objects.</b> Only NodeFenceRemediations carry remedy's finalizer; an object of another kind may be
 * gone before any reconcile saw it being deleted. {@link #watch} therefore releases a deleted object's host (through
 * its Machine, else by scanning the hosts for its annotation), and {@link #sweep} (run by every watch at its start and
 * each resync) removes every {@value #REBOOT_KEY_PREFIX}&lt;uid&gt; request whose uid is no live object of a kind this
 * remediator knows: the kinds it watches, the kinds it reconciled, and NodeFenceRemediation. Escalate every kind of a
 * cluster through one remediator (one {@link #watch} per kind), since the sweep of one would release the hosts of
 * objects of a kind only another knows.
 *
 * <p><b>The status of foreign kinds.</b> The phase, {@code retryCount} and {@code phaseSince} live in the object's
 * status. A CRD whose schema prunes status fields it does not declare drops those it lacks on every status write:
 * without {@code status.phaseSince} each reconcile starts the phase's timer again (and rewrites the status), so the
 * power-off and power-on timeouts never expire: a host that never powers off stays requested off, a node that never
 * gets ready is neither power-cycled again nor has its Machine deleted, until the object is deleted (which releases
 * the host). Without {@code status.phase} every reconcile starts from the beginning. Escalate only kinds whose CRD
 * keeps these fields (declared, or {@code x-kubernetes-preserve-unknown-fields} on {@code status}).
 */
public final class EscalateRemediator {

    /** The start of the reboot request's key; the remediation object's uid follows. */
    public static final String REBOOT_KEY_PREFIX = "remedy-escalate-";

    private static final Logger LOG = LoggerFactory.getLogger(EscalateRemediator.class);

    private final Metal3Objects objects;
    private final TimeSource time;
    private final Map<String, ResourceDefinitionContext> kinds = new ConcurrentHashMap<>();

    /** What one {@link #reconcile} did. */
    public record Result(RemediationPhase phase, boolean statusWritten, List<RemediationAction> actions,
            Optional<String> skipped) {

        /** Copies the actions. */
        public Result {
            Objects.requireNonNull(phase, "phase");
            actions = List.copyOf(actions);
            Objects.requireNonNull(skipped, "skipped");
        }

        private static Result skipped(RemediationPhase phase, String why) {
            return new Result(phase, false, List.of(), Optional.of(why));
        }
    }

    private EscalateRemediator(Builder b) {
        this.objects = new Metal3Objects(b.client, b.machineVersion);
        this.time = b.time;
        know(new ResourceDefinitionContext.Builder().withGroup(NodeFenceRemediation.GROUP)
                .withVersion(NodeFenceRemediation.VERSION).withKind(NodeFenceRemediation.KIND)
                .withPlural(NodeFenceRemediation.PLURAL).withNamespaced(true).build());
    }

    /** A builder on {@code client}. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** The host annotation of the remediation object with uid {@code uid}. */
    public static String rebootAnnotation(String uid) {
        return RebootRequests.ANNOTATION_PREFIX + REBOOT_KEY_PREFIX + uid;
    }

    /** Whether {@code object}'s spec carries a {@code strategy} (either form), so that it is this class's to run. */
    public static boolean hasStrategy(GenericKubernetesResource object) {
        return object.get("spec", "strategy") != null;
    }

    /**
     * Evaluates one step of {@code remediation} (re-read from the API server) and carries it out: status first, then
     * the actions.
     *
     * @param remediation the remediation object, of any kind whose plural is its kind in lower case plus {@code s}
     * @return what was done, or why nothing was
     * @throws IllegalStateException when the API server refuses a read or write (retry later)
     */
    public Result reconcile(GenericKubernetesResource remediation) {
        ResourceDefinitionContext kind = kindOf(remediation);
        know(kind);
        String namespace = remediation.getMetadata().getNamespace();
        String name = remediation.getMetadata().getName();
        GenericKubernetesResource fresh = read(kind, namespace, name);
        if (fresh == null) {
            return Result.skipped(RemediationPhase.PENDING, "the remediation object is gone");
        }
        String uid = fresh.getMetadata().getUid();
        String annotation = rebootAnnotation(uid);
        RemediationStatus status = EscalateStatusCodec.read(fresh.get("status"));
        GenericKubernetesResource machine = objects.machine(namespace, machineName(fresh));
        if (fresh.getMetadata().getDeletionTimestamp() != null) {
            return new Result(status.phase(), false, release(annotation, machine), Optional.of("being deleted"));
        }
        EscalateStrategy strategy;
        try {
            Map<String, Object> spec = fresh.get("spec");
            strategy = EscalateStrategy.fromSpec(spec == null ? Map.of() : spec);
        } catch (IllegalArgumentException e) {
            LOG.warn("{} {}/{}: {}", kind.getKind(), namespace, name, e.getMessage());
            // a spec made invalid halfway must not leave the host held off
            return new Result(status.phase(), false, release(annotation, machine), Optional.of(e.getMessage()));
        }
        if (status.phase().terminal()) {
            return new Result(status.phase(), false, release(annotation, machine), Optional.empty());
        }
        Optional<RemediationObservation> seen = observe(fresh, machine, status);
        if (seen.isEmpty()) {
            String why = "no Machine " + namespace + "/" + machineName(fresh) + " naming an existing BareMetalHost in "
                    + Metal3Objects.HOST_ANNOTATION + " (on itself or its spec.infrastructureRef object)";
            LOG.warn("{} {}/{}: {}; waiting, and no host is held off meanwhile", kind.getKind(), namespace, name, why);
            return new Result(status.phase(), false, release(annotation, machine), Optional.of(why));
        }
        Instant now = time.instant();
        if (status.phaseSince().filter(now::isBefore).isPresent()) {
            now = status.phaseSince().get(); // another replica's clock ran ahead: never go backwards
        }
        RemediationStep step = EscalateRemediation.next(strategy, status, seen.get(), now);
        boolean written = !step.status().equals(status);
        if (written) {
            writeStatus(kind, fresh, step.status());
        }
        List<RemediationAction> done = new ArrayList<>();
        for (RemediationAction action : step.actions()) {
            act(action, machine, annotation);
            done.add(action);
        }
        if (step.status().phase().terminal()) {
            release(annotation, machine);
        }
        if (written) {
            LOG.info("{} {}/{}: {} -> {} {}", kind.getKind(), namespace, name, status.phase().code(),
                    step.status().phase().code(), done);
        }
        return new Result(step.status().phase(), written, done, Optional.empty());
    }

    /**
     * Watches remediation objects of {@code kind} (all namespaces) and reconciles, on one thread of its own, every one
     * with a {@code spec.strategy} on each change and each resync (which drives the timeouts); releases the host of
     * every deleted object, and runs {@link #sweep} at once and every {@code resync}.
     *
     * @return the watch; close it to stop
     */
    public AutoCloseable watch(ResourceDefinitionContext kind, Duration resync) {
        know(kind);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "remedy-escalate-" + kind.getKind().toLowerCase(Locale.ROOT));
            t.setDaemon(true);
            return t;
        });
        SharedIndexInformer<GenericKubernetesResource> informer = objects.client().genericKubernetesResources(kind)
                .inAnyNamespace().inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(GenericKubernetesResource obj) {
                        submit(obj);
                    }

                    @Override
                    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                        submit(newObj);
                    }

                    @Override
                    public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
                        // any kind without remedy's finalizer is gone before a reconcile sees it being deleted
                        run(obj, () -> released(obj));
                    }

                    private void submit(GenericKubernetesResource obj) {
                        if (hasStrategy(obj)) {
                            run(obj, () -> reconcile(obj));
                        }
                    }

                    private void run(GenericKubernetesResource obj, Runnable work) {
                        executor.execute(() -> {
                            try {
                                work.run();
                            } catch (RuntimeException e) {
                                LOG.warn("escalate {} {}/{}: {}", kind.getKind(), obj.getMetadata().getNamespace(),
                                        obj.getMetadata().getName(), e.getMessage(), e);
                            }
                        });
                    }
                }, resync.toMillis());
        executor.scheduleWithFixedDelay(() -> {
            try {
                sweep();
            } catch (RuntimeException e) {
                LOG.warn("escalate sweep of BareMetalHosts: {}", e.getMessage(), e);
            }
        }, 0, resync.toMillis(), TimeUnit.MILLISECONDS);
        return () -> {
            informer.close();
            executor.shutdownNow();
        };
    }

    /**
     * Removes every {@value #REBOOT_KEY_PREFIX}&lt;uid&gt; reboot request from every BareMetalHost whose uid is no
     * live object of a kind this remediator knows (see the class comment): the request of a remediation object deleted
     * without being released. The hosts are listed before the objects, so a request written meanwhile belongs to an
     * object that is listed.
     *
     * @return how many requests were removed
     * @throws IllegalStateException when the API server refuses a list or a write (nothing is released on doubt)
     */
    public int sweep() {
        String prefix = rebootAnnotation("");
        List<GenericKubernetesResource> held = hosts().stream().filter(h -> h.getMetadata().getAnnotations() != null
                && h.getMetadata().getAnnotations().keySet().stream().anyMatch(k -> k.startsWith(prefix))).toList();
        if (held.isEmpty()) {
            return 0;
        }
        Set<String> live = new HashSet<>();
        for (ResourceDefinitionContext kind : kinds.values()) {
            liveUids(kind, live);
        }
        int removed = 0;
        for (GenericKubernetesResource h : held) {
            for (String key : List.copyOf(h.getMetadata().getAnnotations().keySet())) {
                if (key.startsWith(prefix) && !live.contains(key.substring(prefix.length()))) {
                    objects.annotate(BareMetalHost.RESOURCE, h, key, null);
                    LOG.info("BareMetalHost {}/{}: released {} (its remediation object is gone)",
                            h.getMetadata().getNamespace(), h.getMetadata().getName(), key);
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Releases the host of a deleted remediation object: through its Machine, else every host carrying its key. */
    private void released(GenericKubernetesResource deleted) {
        String uid = deleted.getMetadata().getUid();
        if (uid == null || uid.isBlank()) {
            return; // a tombstone without a uid: the sweep releases its host
        }
        List<RemediationAction> done = release(rebootAnnotation(uid),
                objects.machine(deleted.getMetadata().getNamespace(), machineName(deleted)));
        if (!done.isEmpty()) {
            LOG.info("{} {}/{} deleted: its host released", deleted.getKind(), deleted.getMetadata().getNamespace(),
                    deleted.getMetadata().getName());
        }
    }

    private void liveUids(ResourceDefinitionContext kind, Set<String> into) {
        try {
            objects.client().genericKubernetesResources(kind).inAnyNamespace().list().getItems()
                    .forEach(o -> into.add(o.getMetadata().getUid()));
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) { // 404: the kind is not installed, no objects
                throw Metal3Objects.failure("list " + kind.getKind() + "s to find released hosts", e);
            }
        }
    }

    private List<GenericKubernetesResource> hosts() {
        try {
            return objects.client().genericKubernetesResources(BareMetalHost.RESOURCE).inAnyNamespace().list()
                    .getItems();
        } catch (KubernetesClientException e) {
            throw Metal3Objects.failure("list BareMetalHosts", e);
        }
    }

    private void know(ResourceDefinitionContext kind) {
        kinds.putIfAbsent(kind.getGroup() + "/" + kind.getVersion() + "/" + kind.getPlural(), kind);
    }

    private Optional<RemediationObservation> observe(GenericKubernetesResource remediation,
            GenericKubernetesResource machine, RemediationStatus status) {
        boolean timedOut = Metal3Objects.annotation(remediation, EscalateRemediation.TIMED_OUT_ANNOTATION) != null;
        if (machine == null) {
            // Cluster API deletes a Machine's Node before the Machine goes (its finalizer): no Machine, no Node
            return status.phase() == RemediationPhase.DELETING || timedOut
                    ? Optional.of(new RemediationObservation(true, false, false, timedOut)) : Optional.empty();
        }
        GenericKubernetesResource host = objects.hostOf(machine);
        if (host == null) {
            return timedOut ? Optional.of(new RemediationObservation(true, false, false, true)) : Optional.empty();
        }
        Node node = Metal3Objects.nodeName(machine).map(objects::node).orElse(null);
        return Optional.of(new RemediationObservation(Metal3Objects.poweredOn(host), node != null,
                Metal3Objects.ready(node), timedOut));
    }

    private void act(RemediationAction action, GenericKubernetesResource machine, String annotation) {
        GenericKubernetesResource host = machine == null ? null : objects.hostOf(machine);
        switch (action) {
            case ADD_REBOOT_ANNOTATION -> {
                if (host == null) {
                    throw new IllegalStateException("cannot power off: the Machine or its BareMetalHost is gone; "
                            + "retried on the next evaluation");
                }
                if (!MachineRemediationRules.REBOOT_ANNOTATION_VALUE.equals(Metal3Objects.annotation(host,
                        annotation))) {
                    objects.annotate(BareMetalHost.RESOURCE, host, annotation,
                            MachineRemediationRules.REBOOT_ANNOTATION_VALUE);
                }
            }
            case REMOVE_REBOOT_ANNOTATION -> release(annotation, machine);
            case DELETE_MACHINE -> {
                if (machine != null) {
                    objects.deleteMachine(machine.getMetadata().getNamespace(), machine.getMetadata().getName());
                }
            }
            default -> throw new IllegalStateException("no effect for " + action);
        }
    }

    /**
     * Removes {@code annotation} from the Machine's host (a Machine keeps its host for life), or, when the Machine or
     * its host is gone, from every host that carries it.
     */
    private List<RemediationAction> release(String annotation, GenericKubernetesResource machine) {
        GenericKubernetesResource own = machine == null ? null : objects.hostOf(machine);
        List<GenericKubernetesResource> hosts = own != null ? List.of(own) : hosts();
        List<RemediationAction> done = new ArrayList<>();
        for (GenericKubernetesResource h : hosts) {
            if (Metal3Objects.annotation(h, annotation) != null) {
                objects.annotate(BareMetalHost.RESOURCE, h, annotation, null);
                done.add(RemediationAction.REMOVE_REBOOT_ANNOTATION);
            }
        }
        return done;
    }

    private void writeStatus(ResourceDefinitionContext kind, GenericKubernetesResource fresh, RemediationStatus next) {
        fresh.setAdditionalProperty("status", EscalateStatusCodec.write(fresh.get("status"), next));
        try {
            // guarded by the resourceVersion just read: a concurrent writer makes it 409 and the step is redone
            objects.client().genericKubernetesResources(kind).inNamespace(fresh.getMetadata().getNamespace())
                    .resource(fresh).updateStatus();
        } catch (KubernetesClientException e) {
            throw Metal3Objects.failure("write the status of " + kind.getKind() + " "
                    + fresh.getMetadata().getNamespace() + "/" + fresh.getMetadata().getName()
                    + " (no action was taken)", e);
        }
    }

    private GenericKubernetesResource read(ResourceDefinitionContext kind, String namespace, String name) {
        try {
            return objects.client().genericKubernetesResources(kind).inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw Metal3Objects.failure("read " + kind.getKind() + " " + namespace + "/" + name, e);
        }
    }

    private static String machineName(HasMetadata remediation) {
        List<OwnerReference> owners = remediation.getMetadata().getOwnerReferences();
        return owners == null ? remediation.getMetadata().getName() : owners.stream()
                .filter(o -> "Machine".equals(o.getKind()) && o.getApiVersion() != null
                        && o.getApiVersion().startsWith("cluster.x-k8s.io/"))
                .map(OwnerReference::getName).findFirst().orElse(remediation.getMetadata().getName());
    }

    private static ResourceDefinitionContext kindOf(GenericKubernetesResource object) {
        String apiVersion = Objects.requireNonNull(object.getApiVersion(), "remediation.apiVersion");
        int slash = apiVersion.indexOf('/');
        return new ResourceDefinitionContext.Builder().withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                .withVersion(apiVersion.substring(slash + 1)).withKind(object.getKind())
                .withPlural(object.getKind().toLowerCase(Locale.ROOT) + "s").withNamespaced(true).build();
    }

    /** Builds an {@link EscalateRemediator}. */
    public static final class Builder {
        private final KubernetesClient client;
        private String machineVersion = "v1beta1";
        private TimeSource time = TimeSource.system();

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** The Cluster API version the Machines are read in: {@code v1beta1} (default) or {@code v1beta2}. */
        public Builder machineVersion(String version) {
            Metal3Objects.machines(version);
            machineVersion = version;
            return this;
        }

        /** The time source of the timeouts (the system's by default). */
        public Builder time(TimeSource value) {
            time = Objects.requireNonNull(value, "time");
            return this;
        }

        /** The remediator. */
        public EscalateRemediator build() {
            return new EscalateRemediator(this);
        }
    }
}
