package dev.remedy.fence.kube.machine.internal;

import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and writes the Cluster API Machines, metal3 BareMetalHosts and Nodes of the annotation protocols, as
 * {@link GenericKubernetesResource}s. Every read goes to the API server (no cache), every write is idempotent: an
 * annotation is set or removed with a JSON merge patch, a delete of a missing object succeeds.
 */
public final class Metal3Objects {

    /** The Machine annotation naming its BareMetalHost, {@code <namespace>/<name>} (set by CAPM3). */
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

    /** The host a Machine's {@value #HOST_ANNOTATION} names, or {@code null} when it names none or it is missing. */
    public GenericKubernetesResource hostOf(GenericKubernetesResource machine) {
        return hostRef(machine).map(ref -> read(BareMetalHost.RESOURCE, ref[0], ref[1])).orElse(null);
    }

    /** The {@code [namespace, name]} a Machine's {@value #HOST_ANNOTATION} names (namespace defaults to its own). */
    public static Optional<String[]> hostRef(GenericKubernetesResource machine) {
        String value = annotation(machine, HOST_ANNOTATION);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        int slash = value.indexOf('/');
        return Optional.of(slash < 0 ? new String[] {machine.getMetadata().getNamespace(), value}
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
