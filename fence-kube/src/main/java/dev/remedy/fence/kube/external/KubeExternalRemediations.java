package dev.remedy.fence.kube.external;

import dev.remedy.core.policy.ExternalRemediations;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner.Cancellation;
import dev.remedy.core.policy.RemedyRunner.Progress;
import dev.remedy.core.rules.EscalateRemediation;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.fence.kube.events.References;
import dev.remedy.fence.kube.external.internal.Blueprint;
import dev.remedy.fence.kube.external.internal.Blueprints;
import dev.remedy.fence.kube.external.internal.Kinds;
import dev.remedy.fence.kube.external.internal.NodeMarks;
import dev.remedy.fence.kube.external.internal.Outcomes;
import dev.remedy.fence.kube.external.internal.RemedyJobs;
import dev.remedy.fence.kube.external.internal.Unbuildable;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * External remedies on Kubernetes: remedy drives other remediators the way NodeHealthCheck and MachineHealthCheck do,
 * and runs the Node remedy design's remedy pods as Jobs.
 *
 * <h2>What is created</h2>
 * <ul>
 *   <li>A {@link Remedy.External.TemplateRef template reference}: the template is read (its namespace defaults to
 *       remedy's) and instantiated by {@link dev.remedy.core.rules.ExternalRemediation}: kind without
 *       {@code Template}, the template's {@code spec.template.spec}. A node of a Cluster API Machine (Node
 *       annotations {@code cluster.x-k8s.io/machine} and {@code cluster.x-k8s.io/cluster-namespace}) gets the
 *       Machine's name and namespace, an owner reference to the Machine, the {@code cloned-from} annotations and the
 *       {@code cluster-name} label; any other node gets its own name (or {@code generateName: <node>-} for a
 *       template with {@code remediation.medik8s.io/multiple-templates-support: "true"}) in the template's
 *       namespace, the {@code remediation.medik8s.io/node-name} and {@code template-name} annotations, the
 *       {@code remediation.medik8s.io/isControlPlaneNode} label on control-plane nodes, and no owner (a Node owner
 *       would let the garbage collector delete the object mid-remediation when the remediator deletes or re-creates
 *       the Node; remedy deletes it itself).</li>
 *   <li>An inline {@code batch/v1} Job (a {@code podTemplate} remedy): a Job in remedy's namespace named
 *       {@code remedy-<remedy>-<node>-<hash>} (at most 63 characters), every container given the node's name in
 *       {@value #NODE_NAME_ENV}; its annotations are kept, {@code remedy.dev/release-workloads} among them, which
 *       nothing acts on yet (a Job's success does not confirm the node is off, which releasing workloads
 *       requires).</li>
 *   <li>Another inline object: created as given, named like the node, in remedy's namespace.</li>
 * </ul>
 * Every object carries {@code app.kubernetes.io/managed-by=remedy} and the annotations {@code remedy.dev/remedy}
 * and {@code remedy.dev/node-name}; remedy never takes over an object without them. The Node is annotated with the
 * object ({@code remedy.dev/external-remedy}, {@code remedy.dev/external-remediation} = {@code namespace/name},
 * {@code remedy.dev/external-remediation-started}), so a new instance (a restarted or new leader) re-attaches to it
 * instead of creating a second one. An object of the same name that is finished, or was made for another remedy,
 * is left over from an earlier remediation: it is deleted and a new one created once it is gone.
 *
 * <h2>Progress and cancellation</h2>
 * A remediation CR is {@link Progress#DONE} on {@code Succeeded=True}, {@link Progress#FAILED} on
 * {@code Succeeded=False}, else running; a Job is done when it succeeded ({@code status.succeeded} or
 * {@code Complete}) and failed on {@code Failed}. An object that disappears before it reports an outcome is a
 * failure (someone else removed it; the policy escalates rather than waiting for its timeout), and so is one that
 * cannot be made (a missing template or Machine, a name taken by a foreign object, a kind the API server does not
 * serve, a permission missing): a Warning Event on the Node says which object and what to do. On
 * {@link Cancellation#TIMED_OUT} a remediation CR first gets {@value #TIMED_OUT_ANNOTATION} (as NodeHealthCheck
 * writes it, so its remediator stops instead of finishing) and is then deleted; on
 * {@link Cancellation#NODE_HEALTHY} it is deleted. Jobs are deleted with their pods (background propagation). A
 * failed object is kept while the ladder escalates, as NodeHealthCheck keeps it.
 *
 * <p>Only {@link #create} makes an object; {@link #progress} finishes a creation that had to wait (a leftover being
 * deleted) and otherwise only reads, so a remedy whose start was not made (its node's Lease taken by another
 * remediator) creates nothing. Thread-safe. API errors while following an object are logged and read as still
 * running (the remedy's timeout bounds them).
 */
public final class KubeExternalRemediations implements ExternalRemediations {

    /** The environment variable that gives a remedy Job's containers the node's name. */
    public static final String NODE_NAME_ENV = RemedyJobs.NODE_NAME_ENV;
    /** The annotation that tells a remediator its time is up (NodeHealthCheck's). */
    public static final String TIMED_OUT_ANNOTATION = EscalateRemediation.TIMED_OUT_ANNOTATION;
    /** The API version Machines are read as, by default. */
    public static final String DEFAULT_MACHINE_API_VERSION = "cluster.x-k8s.io/v1beta1";

    private static final Logger LOG = LoggerFactory.getLogger(KubeExternalRemediations.class);

    private final KubernetesClient client;
    private final Blueprints blueprints;
    private final NodeMarks marks;
    private final KubeEvents events;
    private final TimeSource time;
    private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    /** Created but not made yet: waiting for a leftover to go, or for another look after a conflict. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    /** An object being followed. */
    private record Tracked(ResourceDefinitionContext kind, String namespace, String name) {
        boolean job() {
            return Kinds.isJob(kind);
        }
    }

    private KubeExternalRemediations(Builder b) {
        this.client = b.client;
        this.blueprints = new Blueprints(b.client, b.namespace, b.machineApiVersion);
        this.marks = new NodeMarks(b.client);
        this.events = b.events;
        this.time = b.time;
    }

    /** A builder on the host's {@code client}. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    @Override
    public void create(String node, Remedy.External remedy) {
        pending.add(key(node, remedy));
        ensure(node, remedy);
    }

    @Override
    public Progress progress(String node, Remedy.External remedy) {
        String key = key(node, remedy);
        if (!tracked.containsKey(key) && pending.contains(key)) {
            ensure(node, remedy);
        }
        if (failures.containsKey(key)) {
            return Progress.FAILED;
        }
        Tracked t = tracked.get(key);
        if (t == null) {
            return Progress.RUNNING;
        }
        GenericKubernetesResource object;
        try {
            object = get(t.kind(), t.namespace(), t.name());
        } catch (KubernetesClientException e) {
            LOG.warn("node {}: cannot read {} {}/{} of remedy {}; read as still running: {}", node, t.kind().getKind(),
                    t.namespace(), t.name(), remedy.name(), e.getMessage());
            return Progress.RUNNING;
        }
        if (object == null) {
            tracked.remove(key);
            fail(key, node, remedy, t.kind().getKind() + " " + t.namespace() + "/" + t.name() + " was deleted by "
                    + "someone else before it reported an outcome; escalating to the policy's next remedy");
            return Progress.FAILED;
        }
        return Outcomes.of(object, t.job());
    }

    @Override
    public void delete(String node, Remedy.External remedy, Cancellation cause) {
        String key = key(node, remedy);
        failures.remove(key);
        pending.remove(key);
        Tracked t = tracked.remove(key);
        try {
            if (t == null) {
                Node n = client.nodes().withName(node).get();
                Optional<String[]> marked = n == null ? Optional.empty() : NodeMarks.objectOf(n, remedy.name());
                if (marked.isPresent()) {
                    t = new Tracked(Blueprints.kindOf(remedy), marked.get()[0], marked.get()[1]);
                }
            }
            if (t != null) {
                if (cause == Cancellation.TIMED_OUT && !t.job()) {
                    markTimedOut(t);
                }
                client.genericKubernetesResources(t.kind()).inNamespace(t.namespace()).withName(t.name())
                        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
                events.publish(new KubeEvents.Note(References.node(node), false, "ExternalRemediationDeleted",
                        "Remediate", t.kind().getKind() + " " + t.namespace() + "/" + t.name() + " of remedy "
                                + remedy.name() + " deleted: " + (cause == Cancellation.TIMED_OUT
                                ? "its timeout passed" : "the node is healthy")));
            }
            marks.clear(node, remedy.name());
        } catch (KubernetesClientException e) {
            LOG.warn("node {}: could not delete the remediation object of remedy {}: {}", node, remedy.name(),
                    e.getMessage());
        }
    }

    private void markTimedOut(Tracked t) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("annotations",
                Map.of(TIMED_OUT_ANNOTATION, time.instant().truncatedTo(ChronoUnit.SECONDS).toString()))));
        try {
            client.genericKubernetesResources(t.kind()).inNamespace(t.namespace()).withName(t.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }

    /** Finds or creates the object of {@code remedy} for {@code node}; leaves it pending when it must wait. */
    private void ensure(String node, Remedy.External remedy) {
        String key = key(node, remedy);
        if (tracked.containsKey(key) || failures.containsKey(key)) {
            return;
        }
        try {
            Node n = client.nodes().withName(node).get();
            if (n == null) {
                fail(key, node, remedy, "node " + node + " does not exist");
                return;
            }
            ResourceDefinitionContext kind = Blueprints.kindOf(remedy);
            Optional<String[]> marked = NodeMarks.objectOf(n, remedy.name());
            if (marked.isPresent()) {
                GenericKubernetesResource existing = get(kind, marked.get()[0], marked.get()[1]);
                if (existing != null && existing.getMetadata().getDeletionTimestamp() == null) {
                    tracked.put(key, new Tracked(kind, marked.get()[0], marked.get()[1]));
                    pending.remove(key);
                    LOG.info("node {}: following {} {}/{} of remedy {} again", node, kind.getKind(),
                            marked.get()[0], marked.get()[1], remedy.name());
                    return;
                }
            }
            Blueprint blueprint = blueprints.build(n, remedy);
            if (!blueprint.generated() && !takeOver(key, node, remedy, blueprint)) {
                return;
            }
            GenericKubernetesResource created = client.genericKubernetesResources(blueprint.context())
                    .inNamespace(blueprint.namespace()).resource(blueprint.object()).create();
            String name = created.getMetadata().getName();
            tracked.put(key, new Tracked(blueprint.context(), blueprint.namespace(), name));
            pending.remove(key);
            marks.mark(node, remedy.name(), blueprint.namespace(), name, time.instant());
            events.publish(new KubeEvents.Note(References.node(node), false, "ExternalRemediationCreated",
                    "Remediate", blueprint.context().getKind() + " " + blueprint.namespace() + "/" + name
                            + " created for remedy " + remedy.name()));
        } catch (Unbuildable e) {
            fail(key, node, remedy, e.getMessage());
        } catch (KubernetesClientException e) {
            handle(key, node, remedy, e);
        }
    }

    /**
     * Whether the object may be created now: no object has its name. One that exists is followed when it is this
     * remedy's and running, deleted when it is a leftover of remedy's (finished, or another remedy's), and a
     * failure when remedy did not make it.
     */
    private boolean takeOver(String key, String node, Remedy.External remedy, Blueprint blueprint) {
        GenericKubernetesResource existing = get(blueprint.context(), blueprint.namespace(), blueprint.name());
        if (existing == null) {
            return true;
        }
        String what = blueprint.context().getKind() + " " + blueprint.namespace() + "/" + blueprint.name();
        Map<String, String> labels = Optional.ofNullable(existing.getMetadata().getLabels()).orElse(Map.of());
        Map<String, String> annotations = Optional.ofNullable(existing.getMetadata().getAnnotations())
                .orElse(Map.of());
        if (!"remedy".equals(labels.get(Blueprints.MANAGED_BY))
                || !node.equals(annotations.get(Blueprints.NODE_ANNOTATION))) {
            fail(key, node, remedy, what + " exists and was not made by remedy for this node; remove it, or give its "
                    + "template remediation.medik8s.io/multiple-templates-support: \"true\" if its remediator accepts "
                    + "several objects per node");
            return false;
        }
        if (existing.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        boolean running = Outcomes.of(existing, Kinds.isJob(blueprint.context())) == Progress.RUNNING;
        if (running && remedy.name().equals(annotations.get(Blueprints.REMEDY_ANNOTATION))) {
            tracked.put(key, new Tracked(blueprint.context(), blueprint.namespace(), blueprint.name()));
            pending.remove(key);
            marks.mark(node, remedy.name(), blueprint.namespace(), blueprint.name(), time.instant());
            return false;
        }
        LOG.info("node {}: deleting {}, left over from an earlier remediation, before remedy {} starts", node, what,
                remedy.name());
        client.genericKubernetesResources(blueprint.context()).inNamespace(blueprint.namespace())
                .withName(blueprint.name()).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        return false;
    }

    private void handle(String key, String node, Remedy.External remedy, KubernetesClientException e) {
        String kind = Blueprints.kindOf(remedy).getKind();
        switch (e.getCode()) {
            case HttpURLConnection.HTTP_CONFLICT ->
                    LOG.info("node {}: the {} of remedy {} exists already; looking again", node, kind, remedy.name());
            case HttpURLConnection.HTTP_FORBIDDEN -> fail(key, node, remedy, "remedy may not create or read " + kind
                    + " objects: give its service account create, get, patch and delete on them (a ClusterRole "
                    + "labelled remedy.dev/aggregate-to-external-remediations: \"true\"): " + e.getMessage());
            case HttpURLConnection.HTTP_NOT_FOUND -> fail(key, node, remedy, "the API server does not serve " + kind
                    + " (" + Blueprints.kindOf(remedy).getPlural() + "." + Blueprints.kindOf(remedy).getGroup()
                    + "): install its remediator, or correct apiVersion and kind in the policy");
            case HttpURLConnection.HTTP_BAD_REQUEST, 422 -> fail(key, node, remedy, "the API server refused the "
                    + kind + " of remedy " + remedy.name() + ": " + e.getMessage());
            default -> LOG.warn("node {}: could not create the {} of remedy {}; trying again: {}", node, kind,
                    remedy.name(), e.getMessage());
        }
    }

    private void fail(String key, String node, Remedy.External remedy, String why) {
        pending.remove(key);
        if (failures.putIfAbsent(key, why) == null) {
            LOG.warn("node {}: remedy {} failed: {}", node, remedy.name(), why);
            events.publish(new KubeEvents.Note(References.node(node), true, "ExternalRemediationFailed", "Remediate",
                    "remedy " + remedy.name() + ": " + why));
        }
    }

    private GenericKubernetesResource get(ResourceDefinitionContext kind, String namespace, String name) {
        return client.genericKubernetesResources(kind).inNamespace(namespace).withName(name).get();
    }

    private static String key(String node, Remedy.External remedy) {
        return node + "\n" + remedy.name();
    }

    /** Settings of {@link KubeExternalRemediations}. */
    public static final class Builder {
        private final KubernetesClient client;
        private String namespace = "remedy";
        private String machineApiVersion = DEFAULT_MACHINE_API_VERSION;
        private KubeEvents events = KubeEvents.NONE;
        private TimeSource time = TimeSource.system();

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * remedy's namespace ({@code remedy}): where Jobs and inline objects are created, and where templates
         * without a namespace are looked up.
         */
        public Builder namespace(String value) {
            namespace = Objects.requireNonNull(value, "namespace");
            return this;
        }

        /** The API version Cluster API Machines are read as ({@value #DEFAULT_MACHINE_API_VERSION}). */
        public Builder machineApiVersion(String value) {
            machineApiVersion = Objects.requireNonNull(value, "machineApiVersion");
            return this;
        }

        /** Where Events go (none by default). */
        public Builder events(KubeEvents value) {
            events = Objects.requireNonNull(value, "events");
            return this;
        }

        /** The clock of the timed-out annotation and the node marks (the system's by default). */
        public Builder time(TimeSource value) {
            time = Objects.requireNonNull(value, "time");
            return this;
        }

        /** The remediations. */
        public KubeExternalRemediations build() {
            return new KubeExternalRemediations(this);
        }
    }
}
