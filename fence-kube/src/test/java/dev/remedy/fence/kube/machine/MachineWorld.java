package dev.remedy.fence.kube.machine;

import dev.remedy.core.rules.MachineRemediationRules;
import dev.remedy.core.rules.MachineRemediationState;
import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import dev.remedy.fence.kube.testing.BareMetalHosts;
import dev.remedy.fence.kube.testing.FakeBareMetalOperator;
import dev.remedy.fence.kube.testing.MinimalCrds;
import dev.remedy.fence.kube.testing.Namespaces;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Machines, BareMetalHosts and Nodes on an API server (the mock, or a real one in the ITs), written and read with the
 * test's own client (never through the class under test). Minimal CRDs with a status subresource are posted first
 * ({@link MinimalCrds}), so that annotation patches leave the status alone and status writes go through the
 * subresource, as on a real server; the namespaces are created, as a real server requires. {@link #sync} moves the
 * world as metal3's host controller (the {@link FakeBareMetalOperator} the agent tests use too) and a kubelet
 * would.
 */
public final class MachineWorld {

    public static final String NAMESPACE = "capi";
    public static final String BACKUPS = "remedy";

    final KubernetesClient client;
    final ResourceDefinitionContext machines;

    public MachineWorld(KubernetesClient client, String machineVersion) {
        this.client = client;
        this.machines = Metal3Objects.machines(machineVersion);
        MinimalCrds.install(client, machines, BareMetalHost.RESOURCE);
        Namespaces.ensure(client, NAMESPACE, BACKUPS);
    }

    /**
     * Moves the world of Machine {@code name} once: the bare-metal operator reconciles its host (a host with a keyed
     * reboot request is powered off and held off, one without is powered on as its {@code spec.online} asks; a
     * paused or detached host is left alone, and nothing else moves); if nothing changed there and the host is on
     * without its Node, the kubelet registers the Node.
     *
     * @return whether anything changed
     */
    public boolean sync(String name) {
        String before = hostObject(name).getMetadata().getResourceVersion();
        if (new FakeBareMetalOperator(client, NAMESPACE, host(name)).step().isEmpty()) {
            return false;
        }
        GenericKubernetesResource host = hostObject(name);
        if (!host.getMetadata().getResourceVersion().equals(before)) {
            return true;
        }
        if (Boolean.TRUE.equals(host.get("status", "poweredOn")) && nodeObject(name) == null) {
            registerNode(name);
            return true;
        }
        return false;
    }

    /** Creates the objects of one truth-table state: Machine {@code name}, host {@code name}-host, node {@code name}-node. */
    public void create(String name, MachineRemediationState s) {
        Map<String, String> machineAnnotations = new HashMap<>();
        machineAnnotations.put(Metal3Objects.HOST_ANNOTATION, NAMESPACE + "/" + host(name));
        if (s.needsRemediation()) {
            machineAnnotations.put(MachineRemediationRules.NEEDS_REMEDIATION, "");
        }
        client.genericKubernetesResources(machines).inNamespace(NAMESPACE).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(machines.getGroup() + "/" + machines.getVersion()).withKind("Machine")
                .withNewMetadata().withNamespace(NAMESPACE).withName(name).withAnnotations(machineAnnotations)
                .endMetadata().withAdditionalProperties(Map.of("spec", Map.of("clusterName", "c1")))
                .build()).create();
        // Cluster API keeps status.nodeRef after the Node is deleted: "node ref exists" is the Node's existence
        GenericKubernetesResource machine = machine(name);
        machine.setAdditionalProperty("status", Map.of("nodeRef", Map.of("kind", "Node", "name", node(name))));
        client.genericKubernetesResources(machines).inNamespace(NAMESPACE).resource(machine).updateStatus();
        Map<String, String> hostAnnotations = new HashMap<>();
        if (s.rebootAnnotation()) {
            hostAnnotations.put(MachineRemediationRules.REBOOT_ANNOTATION, MachineRemediationRules.REBOOT_ANNOTATION_VALUE);
        }
        BareMetalHosts.create(client, NAMESPACE, host(name), hostAnnotations, true, "provisioned", s.poweredOn());
        if (s.nodeRefExists()) {
            registerNode(name);
        }
    }

    /** CAPM3's Metal3Machine, the infrastructure object that carries the host annotation on stock Cluster API. */
    public static final ResourceDefinitionContext METAL3_MACHINES = new ResourceDefinitionContext.Builder()
            .withGroup("infrastructure.cluster.x-k8s.io").withVersion("v1beta1").withKind("Metal3Machine")
            .withPlural("metal3machines").withNamespaced(true).build();

    /**
     * Moves the host annotation of Machine {@code name} where CAPM3 puts it: onto Metal3Machine {@code name}-m3m,
     * which the Machine's {@code spec.infrastructureRef} names (with {@code apiVersion} as in v1beta1 Machines, or
     * with {@code apiGroup} only as in v1beta2 ones); the Machine keeps no annotation of its own.
     */
    @SuppressWarnings("unchecked")
    public void hostThroughInfrastructure(String name, boolean apiVersionInRef) {
        MinimalCrds.install(client, METAL3_MACHINES);
        String infra = name + "-m3m";
        client.genericKubernetesResources(METAL3_MACHINES).inNamespace(NAMESPACE).resource(
                new GenericKubernetesResourceBuilder().withApiVersion(METAL3_MACHINES.getGroup() + "/"
                        + METAL3_MACHINES.getVersion()).withKind("Metal3Machine").withNewMetadata()
                        .withNamespace(NAMESPACE).withName(infra).withAnnotations(Map.of(Metal3Objects.HOST_ANNOTATION,
                                NAMESPACE + "/" + host(name))).endMetadata().build()).create();
        Map<String, Object> ref = new HashMap<>(Map.of("kind", "Metal3Machine", "name", infra));
        ref.put(apiVersionInRef ? "apiVersion" : "apiGroup", apiVersionInRef ? METAL3_MACHINES.getGroup() + "/"
                + METAL3_MACHINES.getVersion() : METAL3_MACHINES.getGroup());
        client.genericKubernetesResources(machines).inNamespace(NAMESPACE).withName(name).edit(m -> {
            m.getMetadata().getAnnotations().remove(Metal3Objects.HOST_ANNOTATION);
            Map<String, Object> spec = new HashMap<>((Map<String, Object>) m.getAdditionalProperties().get("spec"));
            spec.put("infrastructureRef", ref);
            m.setAdditionalProperty("spec", spec);
            return m;
        });
    }

    /** The kubelet registers the Node of Machine {@code name} (Ready, with an administrator's label). */
    void registerNode(String name) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(node(name))
                .addToLabels("example.com/rack", "r7").endMetadata()
                .withNewSpec().withProviderID("metal3://" + NAMESPACE + "/" + host(name)).endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus()
                .build()).create();
    }

    static String host(String machine) {
        return machine + "-host";
    }

    static String node(String machine) {
        return machine + "-node";
    }

    GenericKubernetesResource machine(String name) {
        return client.genericKubernetesResources(machines).inNamespace(NAMESPACE).withName(name).get();
    }

    GenericKubernetesResource hostObject(String machine) {
        return client.genericKubernetesResources(BareMetalHost.RESOURCE).inNamespace(NAMESPACE).withName(host(machine))
                .get();
    }

    public Node nodeObject(String machine) {
        return client.nodes().withName(node(machine)).get();
    }

    /** The state as the test reads it from the objects. */
    public MachineRemediationState state(String name) {
        GenericKubernetesResource h = hostObject(name);
        return new MachineRemediationState(nodeObject(name) != null,
                Metal3Objects.annotation(machine(name), MachineRemediationRules.NEEDS_REMEDIATION) != null,
                Boolean.TRUE.equals(h.get("status", "poweredOn")),
                Metal3Objects.annotation(h, MachineRemediationRules.REBOOT_ANNOTATION) != null);
    }

    /** The resourceVersions of Machine, host and Node (null for a missing Node). */
    List<String> versions(String name) {
        Node n = nodeObject(name);
        return java.util.Arrays.asList(machine(name).getMetadata().getResourceVersion(),
                hostObject(name).getMetadata().getResourceVersion(), n == null ? null : n.getMetadata().getResourceVersion());
    }
}
