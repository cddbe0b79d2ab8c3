package dev.remedy.fence.kube.machine.internal;

import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and writes the Cluster API Machines (and their infrastructure objects, to find a Machine's host), metal3 BareMetalHosts and Nodes of the annotation protocols, as
 * {@link GenericKubernetesResource}s. Every read goes to the API server (no cache), every write is idempotent: an
 * annotation is set or removed with a JSON merge patch, a delete of a missing object succeeds.
 */
public final class Metal3Objects {

    /**
     * The annotation naming a Machine's BareMetalHost, {@code <namespace>/<name>}: on the Machine itself with
     * OpenShift's machine-api (and older bare-metal providers), on the Machine's infrastructure object (a
     * Metal3Machine, set by CAPM3) with Cluster API. See {@link #hostRef}.
     */
    public static final String HOST_ANNOTATION = "metal3.io/BareMetalHost";

    private final KubernetesClient client;
    private final ResourceDefinitionContext machines;

    /** Objects on {@code client}; Machines of the Cluster API version {@code machineVersion} (v1beta1, v1beta2). */
    public Metal3Objects(KubernetesClient client, String machineVersion) {
        this.client = Objects.requireNonNull(client, "client");
        this.machines = machines(machineVersion);
    }

    /** The Machine kind of {@code version} of {@code cluster.x-k8s.io}. */
    public static ResourceDefinitionContext machines(String version) {
        Objects.requireNonNull(version, "machineVersion");
        if (!version.equals("v1beta1") && !version.equals("v1beta2")) {
            throw new IllegalArgumentException("machineVersion: '" + version + "' is not a Cluster API Machine "
                    + "version remedy reads; use v1beta1 or v1beta2 (the version your cluster serves)");
        }
        return new ResourceDefinitionContext.Builder().withGroup("cluster.x-k8s.io").withVersion(version)
                .withKind("Machine").withPlural("machines").withNamespaced(true).build();
    }

    /** The Machine kind in use. */
    public ResourceDefinitionContext machineKind() {
        return machines;
    }

    /** The client. */
    public KubernetesClient client() {
        return client;
    }

    /** The Machine, or {@code null}. */
    public GenericKubernetesResource machine(String namespace, String name) {
        return read(machines, namespace, name);
    }

    /**
     * The host the Machine's {@link #hostRef} names, or {@code null} when it names none or the host is missing.
     *
     * @throws IllegalStateException when the API server refuses a read
     */
    public GenericKubernetesResource hostOf(GenericKubernetesResource machine) {
        return hostRef(machine).map(ref -> read(BareMetalHost.RESOURCE, ref[0], ref[1])).orElse(null);
    }

    /**
     * The {@code [namespace, name]} of the Machine's BareMetalHost: its own {@value #HOST_ANNOTATION} when it carries
     * one (OpenShift's machine-api, older providers), else that annotation on the infrastructure object its
     * {@code spec.infrastructureRef} names (Cluster API with CAPM3: a Metal3Machine). Empty when neither names a host.
     *
     * @throws IllegalStateException when the API server refuses a read
     */
    public Optional<String[]> hostRef(GenericKubernetesResource machine) {
        Optional<String[]> own = ownHostRef(machine);
        return own.isPresent() ? own : infrastructure(machine).flatMap(Metal3Objects::parseHostRef);
    }

    /**
     * The {@code [namespace, name]} the object's own {@value #HOST_ANNOTATION} names (the namespace defaults to the
     * object's), read without any API call.
     */
    public static Optional<String[]> ownHostRef(GenericKubernetesResource object) {
        return parseHostRef(object);
    }

    /** Whether the Machine names an infrastructure object in {@code spec.infrastructureRef} (no API call). */
    public static boolean hasInfrastructureRef(GenericKubernetesResource machine) {
        return machine.get("spec", "infrastructureRef") instanceof Map;
    }

    /**
     * The infrastructure object the Machine's {@code spec.infrastructureRef} names, in the Machine's namespace: its
     * kind ({@code kind}, plural its lower case plus {@code s}) in {@code apiVersion} (v1beta1 Machines), or in the
     * version the API server prefers for {@code apiGroup} (v1beta2 Machines, whose reference names no version).
     * Empty when the Machine names none, or the object or its group does not exist.
     *
     * @throws IllegalStateException when the API server refuses a read
     */
    public Optional<GenericKubernetesResource> infrastructure(GenericKubernetesResource machine) {
        if (!(machine.get("spec", "infrastructureRef") instanceof Map<?, ?> ref)
                || !(ref.get("kind") instanceof String kind) || !(ref.get("name") instanceof String name)) {
            return Optional.empty();
        }
        String apiVersion = ref.get("apiVersion") instanceof String v ? v
                : ref.get("apiGroup") instanceof String g ? preferredVersion(g) : null;
        if (apiVersion == null) {
            return Optional.empty();
        }
        int slash = apiVersion.indexOf('/');
        ResourceDefinitionContext infra = new ResourceDefinitionContext.Builder()
                .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash)).withVersion(apiVersion.substring(slash + 1))
                .withKind(kind).withPlural(kind.toLowerCase(Locale.ROOT) + "s").withNamespaced(true).build();
        return Optional.ofNullable(read(infra, machine.getMetadata().getNamespace(), name));
    }

    /** {@code group/version} of the version the API server prefers for {@code group}, or null when it serves none. */
    private String preferredVersion(String group) {
        try {
            APIGroup served = client.getApiGroup(group);
            return served == null || served.getPreferredVersion() == null ? null
                    : served.getPreferredVersion().getGroupVersion();
        } catch (KubernetesClientException e) {
            throw failure("discover the served versions of API group " + group, e);
        }
    }

    private static Optional<String[]> parseHostRef(GenericKubernetesResource object) {
        String value = annotation(object, HOST_ANNOTATION);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        int slash = value.indexOf('/');
        return Optional.of(slash < 0 ? new String[] {object.getMetadata().getNamespace(), value}
                : new String[] {value.substring(0, slash), value.substring(slash + 1)});
    }

    /** The name in a Machine's {@code status.nodeRef.name}, if any. */
    public static Optional<String> nodeName(GenericKubernetesResource machine) {
        Object name = machine.get("status", "nodeRef", "name");
        return name instanceof String s && !s.isBlank() ? Optional.of(s) : Optional.empty();
    }

    /** The Node, or {@code null}. */
    public Node node(String name) {
        try {
            return client.nodes().withName(name).get();
        } catch (KubernetesClientException e) {
            throw failure("read node " + name, e);
        }
    }

    /** Whether {@code node} reports {@code Ready=True}. */
    public static boolean ready(Node node) {
        return node != null && node.getStatus() != null && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType()))
                        .map(NodeCondition::getStatus).anyMatch("True"::equals);
    }

    /** Whether the host reports {@code status.poweredOn: true}; a host without that field is taken as on. */
    public static boolean poweredOn(GenericKubernetesResource host) {
        return !Boolean.FALSE.equals(host.get("status", "poweredOn"));
    }

    /** Whether the host operator leaves the host alone: it is paused or detached. */
    public static boolean unmanaged(GenericKubernetesResource host) {
        return annotation(host, BareMetalHost.PAUSED) != null || annotation(host, BareMetalHost.DETACHED) != null;
    }

    /** The annotation's value, or {@code null}. */
    public static String annotation(GenericKubernetesResource object, String key) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }

    /**
     * Sets ({@code value} not null, a JSON merge patch) or removes ({@code value} null, a JSON patch {@code remove},
     * skipped when {@code object} as read has no such annotation) an annotation of an object of {@code kind}. A
     * removal that fails because the annotation or the object is gone meanwhile succeeds.
     */
    public void annotate(ResourceDefinitionContext kind, GenericKubernetesResource object, String key, String value) {
        String namespace = object.getMetadata().getNamespace();
        String name = object.getMetadata().getName();
        String what = (value == null ? "remove annotation " : "set annotation ") + key + " of " + kind.getKind() + " "
                + namespace + "/" + name;
        var resource = client.genericKubernetesResources(kind).inNamespace(namespace).withName(name);
        try {
            if (value != null) {
                resource.patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization()
                        .asJson(Map.of("metadata", Map.of("annotations", Map.of(key, value)))));
            } else if (hasAnnotation(object, key)) {
                // a JSON patch rather than a merge patch with null: the mock API server keeps a null-valued key
                resource.patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/"
                        + key.replace("~", "~0").replace("/", "~1") + "\"}]");
            }
        } catch (KubernetesClientException e) {
            if (value == null) {
                GenericKubernetesResource now = read(kind, namespace, name);
                if (now == null || !hasAnnotation(now, key)) {
                    return; // removed meanwhile, or the object is gone: nothing left to remove
                }
            }
            throw failure(what, e);
        }
    }

    private static boolean hasAnnotation(GenericKubernetesResource object, String key) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations != null && annotations.containsKey(key);
    }

    /** Deletes the Machine; a missing one is fine. */
    public void deleteMachine(String namespace, String name) {
        try {
            client.genericKubernetesResources(machines).inNamespace(namespace).withName(name).delete();
        } catch (KubernetesClientException e) {
            throw failure("delete Machine " + namespace + "/" + name, e);
        }
    }

    private GenericKubernetesResource read(ResourceDefinitionContext kind, String namespace, String name) {
        try {
            return client.genericKubernetesResources(kind).inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw failure("read " + kind.getKind() + " " + namespace + "/" + name, e);
        }
    }

    /** An exception naming what failed and the API server's answer; remedy retries on the next evaluation. */
    public static IllegalStateException failure(String what, KubernetesClientException e) {
        return new IllegalStateException("cannot " + what + ": the API server answered HTTP " + e.getCode() + " ("
                + e.getMessage() + "); it is retried on the next evaluation, check remedy's RBAC if it persists", e);
    }
}
