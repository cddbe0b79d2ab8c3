package dev.remedy.fence.kube.external.internal;

import dev.remedy.core.policy.NodeStatus;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.rules.ExternalRemediation;
import dev.remedy.core.rules.MachineRef;
import dev.remedy.core.rules.NodeRef;
import dev.remedy.core.rules.OwnerReference;
import dev.remedy.core.rules.RemediationRequest;
import dev.remedy.core.rules.RemediationTemplate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes the object of an external remedy for a node: a template looked up and instantiated (for the node's Cluster
 * API Machine when it has one, else for the node), an inline object, or a Job. Every object carries remedy's
 * {@value #MANAGED_BY}{@code =remedy} label and the {@value #REMEDY_ANNOTATION} and {@value #NODE_ANNOTATION}
 * annotations, by which remedy recognises its own objects.
 */
public final class Blueprints {

    /** The label of every object remedy manages, with value {@code remedy}. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** On a remediation object: the name of the remedy (escalation rung) it was made for. */
    public static final String REMEDY_ANNOTATION = "remedy.dev/remedy";
    /** On a remediation object: the node it was made for. */
    public static final String NODE_ANNOTATION = "remedy.dev/node-name";
    /** Set by Cluster API on a Machine's Node: the Machine's name. */
    public static final String MACHINE_ANNOTATION = "cluster.x-k8s.io/machine";
    /** Set by Cluster API on a Machine's Node: the Machine's namespace (its cluster's). */
    public static final String CLUSTER_NAMESPACE_ANNOTATION = "cluster.x-k8s.io/cluster-namespace";
    /** Set by Cluster API on a Machine's Node: the Machine's cluster. */
    public static final String CLUSTER_NAME_ANNOTATION = "cluster.x-k8s.io/cluster-name";

    private final KubernetesClient client;
    private final String namespace;
    private final String machineApiVersion;

    /**
     * Objects through {@code client}; Jobs, inline objects and templates without a namespace in {@code namespace};
     * Machines read as {@code machineApiVersion}.
     */
    public Blueprints(KubernetesClient client, String namespace, String machineApiVersion) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.machineApiVersion = Objects.requireNonNull(machineApiVersion, "machineApiVersion");
    }

    /** The kind and resource of the objects {@code remedy} makes. */
    public static ResourceDefinitionContext kindOf(Remedy.External remedy) {
        if (remedy.source() instanceof Remedy.External.TemplateRef ref) {
            return Kinds.namespaced(ref.apiVersion(),
                    ref.kind().substring(0, ref.kind().length() - RemediationTemplate.KIND_SUFFIX.length()));
        }
        Map<String, Object> object = ((Remedy.External.Inline) remedy.source()).object();
        return Kinds.namespaced(String.valueOf(object.get("apiVersion")), String.valueOf(object.get("kind")));
    }

    /**
     * The object of {@code remedy} for {@code node}.
     *
     * @throws Unbuildable when the template, or the node's Machine, cannot be read or is malformed
     */
    public Blueprint build(Node node, Remedy.External remedy) throws Unbuildable {
        ResourceDefinitionContext kind = kindOf(remedy);
        Blueprint made;
        if (remedy.source() instanceof Remedy.External.TemplateRef ref) {
            made = instantiate(node, ref);
        } else if (Kinds.isJob(kind)) {
            made = new Blueprint(kind, RemedyJobs.job(node.getMetadata().getName(), remedy, namespace), false);
        } else {
            made = inline(node.getMetadata().getName(), remedy, kind);
        }
        ObjectMeta meta = made.object().getMetadata();
        meta.setLabels(with(meta.getLabels(), MANAGED_BY, "remedy"));
        Map<String, String> annotations = with(meta.getAnnotations(), REMEDY_ANNOTATION, remedy.name());
        meta.setAnnotations(with(annotations, NODE_ANNOTATION, node.getMetadata().getName()));
        return made;
    }

    private Blueprint instantiate(Node node, Remedy.External.TemplateRef ref) throws Unbuildable {
        RemediationTemplate template = template(ref);
        String name = node.getMetadata().getName();
        Map<String, String> annotations = Optional.ofNullable(node.getMetadata().getAnnotations()).orElse(Map.of());
        String machine = annotations.get(MACHINE_ANNOTATION);
        RemediationRequest request;
        if (machine != null && !machine.isBlank()) {
            String machineNamespace = annotations.get(CLUSTER_NAMESPACE_ANNOTATION);
            if (machineNamespace == null || machineNamespace.isBlank()) {
                throw new Unbuildable("node " + name + " names its Cluster API Machine " + machine + " ("
                        + MACHINE_ANNOTATION + ") but not the Machine's namespace (" + CLUSTER_NAMESPACE_ANNOTATION
                        + "); Cluster API sets both: check the node's annotations");
            }
            GenericKubernetesResource found = machine(machineNamespace, machine, name);
            request = ExternalRemediation.instantiate(template, new MachineRef(machineApiVersion, "Machine", machine,
                    machineNamespace, found.getMetadata().getUid()), clusterName(found, annotations, name));
        } else {
            Map<String, String> labels = Optional.ofNullable(node.getMetadata().getLabels()).orElse(Map.of());
            request = ExternalRemediation.instantiate(template, new NodeRef(name,
                    labels.containsKey(NodeStatus.CONTROL_PLANE_LABEL) || labels.containsKey(NodeStatus.MASTER_LABEL)));
        }
        return new Blueprint(Kinds.namespaced(request.apiVersion(), request.kind()), object(request),
                request.generateName());
    }

    private RemediationTemplate template(Remedy.External.TemplateRef ref) throws Unbuildable {
        String ns = ref.namespace().orElse(namespace);
        String what = "remediation template " + ref.apiVersion() + " " + ref.kind() + " " + ns + "/" + ref.name();
        GenericKubernetesResource found = get(Kinds.namespaced(ref.apiVersion(), ref.kind()), ns, ref.name(), what);
        if (found == null) {
            throw new Unbuildable(what + " does not exist: create it, or correct the reference (external: "
                    + "apiVersion, kind, name, namespace) in the policy");
        }
        Object spec = found.getAdditionalProperties().get("spec");
        Object inner = spec instanceof Map<?, ?> m ? m.get("template") : null;
        if (!(inner instanceof Map<?, ?> templateMap)) {
            throw new Unbuildable(what + " has no spec.template; a remediation template holds the remediation "
                    + "object's spec under spec.template.spec");
        }
        Object objectSpec = templateMap.get("spec");
        if (objectSpec != null && !(objectSpec instanceof Map<?, ?>)) {
            throw new Unbuildable(what + ": spec.template.spec is not an object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> specMap = objectSpec == null ? Map.of() : (Map<String, Object>) objectSpec;
        Map<String, String> meta = Optional.ofNullable(found.getMetadata().getAnnotations()).orElse(Map.of());
        try {
            return new RemediationTemplate(ref.apiVersion(), ref.kind(), ref.name(), ns,
                    "true".equals(meta.get(ExternalRemediation.MULTIPLE_TEMPLATES_ANNOTATION)), specMap);
        } catch (IllegalArgumentException e) {
            throw new Unbuildable(what + ": " + e.getMessage());
        }
    }

    private GenericKubernetesResource machine(String machineNamespace, String machine, String node)
            throws Unbuildable {
        String what = "Cluster API Machine " + machineNamespace + "/" + machine + " of node " + node;
        GenericKubernetesResource found = get(Kinds.namespaced(machineApiVersion, "Machine"), machineNamespace, machine,
                what);
        if (found == null) {
            throw new Unbuildable(what + " does not exist (read as " + machineApiVersion + "); the node's "
                    + MACHINE_ANNOTATION + " annotation is stale, or the Machine API version differs");
        }
        return found;
    }

    private static String clusterName(GenericKubernetesResource machine, Map<String, String> annotations,
                                      String node) throws Unbuildable {
        Object spec = machine.getAdditionalProperties().get("spec");
        Object name = spec instanceof Map<?, ?> m ? m.get("clusterName") : null;
        if (name instanceof String s && !s.isBlank()) {
            return s;
        }
        String annotated = annotations.get(CLUSTER_NAME_ANNOTATION);
        if (annotated != null && !annotated.isBlank()) {
            return annotated;
        }
        throw new Unbuildable("the Machine of node " + node + " has no spec.clusterName and the node no "
                + CLUSTER_NAME_ANNOTATION + " annotation; the remediation object needs its cluster's name");
    }

    private GenericKubernetesResource get(ResourceDefinitionContext kind, String ns, String name, String what)
            throws Unbuildable {
        try {
            return client.genericKubernetesResources(kind).inNamespace(ns).withName(name).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                throw new Unbuildable("remedy may not read " + what + " (" + kind.getPlural() + "." + kind.getGroup()
                        + "): give its service account get on them, for example with a ClusterRole labelled "
                        + "remedy.dev/aggregate-to-external-remediations: \"true\"");
            }
            throw new Unbuildable("could not read " + what + ": " + e.getMessage());
        }
    }

    private static GenericKubernetesResource object(RemediationRequest request) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(request.apiVersion());
        object.setKind(request.kind());
        ObjectMeta meta = new ObjectMeta();
        if (request.generateName()) {
            meta.setGenerateName(request.name());
        } else {
            meta.setName(request.name());
        }
        meta.setNamespace(request.namespace());
        meta.setLabels(new LinkedHashMap<>(request.labels()));
        meta.setAnnotations(new LinkedHashMap<>(request.annotations()));
        List<io.fabric8.kubernetes.api.model.OwnerReference> owners = new ArrayList<>();
        for (OwnerReference owner : request.owners()) {
            OwnerReferenceBuilder b = new OwnerReferenceBuilder().withApiVersion(owner.apiVersion())
                    .withKind(owner.kind()).withName(owner.name()).withUid(owner.uid());
            owners.add(owner.controller() ? b.withController(true).build() : b.build());
        }
        meta.setOwnerReferences(owners);
        object.setMetadata(meta);
        object.setAdditionalProperty("spec", RemedyJobs.mutableCopy(request.spec()));
        return object;
    }

    /** An inline object other than a Job: created as given, named like the node, in remedy's namespace. */
    private Blueprint inline(String node, Remedy.External remedy, ResourceDefinitionContext kind) {
        Map<String, Object> given = ((Remedy.External.Inline) remedy.source()).object();
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(String.valueOf(given.get("apiVersion")));
        object.setKind(String.valueOf(given.get("kind")));
        ObjectMeta meta = new ObjectMeta();
        meta.setName(node);
        meta.setNamespace(namespace);
        meta.setAnnotations(new LinkedHashMap<>(Map.of(ExternalRemediation.NODE_NAME_ANNOTATION, node)));
        object.setMetadata(meta);
        Object spec = given.get("spec");
        object.setAdditionalProperty("spec", spec instanceof Map<?, ?> m ? RemedyJobs.mutableCopy(m) : Map.of());
        return new Blueprint(kind, object, false);
    }

    private static Map<String, String> with(Map<String, String> map, String key, String value) {
        Map<String, String> copy = map == null ? new LinkedHashMap<>() : new LinkedHashMap<>(map);
        copy.put(key, value);
        return copy;
    }
}
