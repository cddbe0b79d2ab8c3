package dev.remedy.fence.kube.external;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes, templates, Machines and remediation objects for the tests, written and read with the plain client (never
 * through the class under test), so that an operation that reports success without an effect is caught.
 */
final class ExternalFixtures {

    static final String SNR_API = "self-node-remediation.medik8s.io/v1alpha1";
    static final ResourceDefinitionContext SNR_TEMPLATE = kind("self-node-remediation.medik8s.io", "v1alpha1",
            "SelfNodeRemediationTemplate", "selfnoderemediationtemplates");
    static final ResourceDefinitionContext SNR = kind("self-node-remediation.medik8s.io", "v1alpha1",
            "SelfNodeRemediation", "selfnoderemediations");
    static final String METAL3_API = "infrastructure.cluster.x-k8s.io/v1beta1";
    static final ResourceDefinitionContext METAL3_TEMPLATE = kind("infrastructure.cluster.x-k8s.io", "v1beta1",
            "Metal3RemediationTemplate", "metal3remediationtemplates");
    static final ResourceDefinitionContext METAL3 = kind("infrastructure.cluster.x-k8s.io", "v1beta1",
            "Metal3Remediation", "metal3remediations");
    static final ResourceDefinitionContext MACHINE = kind("cluster.x-k8s.io", "v1beta1", "Machine", "machines");
    static final ResourceDefinitionContext JOB = kind("batch", "v1", "Job", "jobs");

    private ExternalFixtures() {
    }

    static ResourceDefinitionContext kind(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }

    /** Creates a Node named {@code name} with {@code labels} and {@code annotations}. */
    static Node addNode(KubernetesClient client, String name, Map<String, String> labels,
                        Map<String, String> annotations) {
        return client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withLabels(labels)
                .withAnnotations(annotations).endMetadata().build()).create();
    }

    /** Creates a template of {@code kind} with {@code spec.template.spec = objectSpec}. */
    static GenericKubernetesResource addTemplate(KubernetesClient client, ResourceDefinitionContext kind,
                                                 String namespace, String name, Map<String, String> annotations,
                                                 Map<String, Object> objectSpec) {
        GenericKubernetesResource template = new GenericKubernetesResource();
        template.setApiVersion(kind.getGroup() + "/" + kind.getVersion());
        template.setKind(kind.getKind());
        template.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name)
                .withAnnotations(annotations).build());
        template.setAdditionalProperty("spec", Map.of("template", Map.of("spec", objectSpec)));
        return client.genericKubernetesResources(kind).inNamespace(namespace).resource(template).create();
    }

    /** Creates a Cluster API Machine of cluster {@code cluster}. */
    static GenericKubernetesResource addMachine(KubernetesClient client, String namespace, String name,
                                                String cluster) {
        GenericKubernetesResource machine = new GenericKubernetesResource();
        machine.setApiVersion("cluster.x-k8s.io/v1beta1");
        machine.setKind("Machine");
        machine.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        machine.setAdditionalProperty("spec", Map.of("clusterName", cluster));
        return client.genericKubernetesResources(MACHINE).inNamespace(namespace).resource(machine).create();
    }

    static GenericKubernetesResource get(KubernetesClient client, ResourceDefinitionContext kind, String namespace,
                                         String name) {
        return client.genericKubernetesResources(kind).inNamespace(namespace).withName(name).get();
    }

    static List<GenericKubernetesResource> list(KubernetesClient client, ResourceDefinitionContext kind,
                                                String namespace) {
        return client.genericKubernetesResources(kind).inNamespace(namespace).list().getItems();
    }

    /** Sets the remediation object's condition {@code type} to {@code status}, as its remediator would. */
    static void setCondition(KubernetesClient client, ResourceDefinitionContext kind, String namespace, String name,
                             String type, String status) {
        GenericKubernetesResource object = get(client, kind, namespace, name);
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", status);
        condition.put("lastTransitionTime", "2026-01-01T00:00:00Z");
        object.setAdditionalProperty("status", Map.of("conditions", new ArrayList<>(List.of(condition))));
        client.genericKubernetesResources(kind).inNamespace(namespace).resource(object).update();
    }

    /** Sets a Job's status, as the Job controller would. */
    static void setJobStatus(KubernetesClient client, String namespace, String name, Map<String, Object> status) {
        GenericKubernetesResource job = get(client, JOB, namespace, name);
        job.setAdditionalProperty("status", status);
        client.genericKubernetesResources(JOB).inNamespace(namespace).resource(job).update();
    }

    /** Adds a finalizer, as a remediator does to clean up before its object goes. */
    static void addFinalizer(KubernetesClient client, ResourceDefinitionContext kind, String namespace, String name,
                             String finalizer) {
        GenericKubernetesResource object = get(client, kind, namespace, name);
        ObjectMeta meta = object.getMetadata();
        meta.setFinalizers(new ArrayList<>(List.of(finalizer)));
        client.genericKubernetesResources(kind).inNamespace(namespace).resource(object).update();
    }

    static Map<String, String> annotations(Node node) {
        return node.getMetadata().getAnnotations() == null ? Map.of() : node.getMetadata().getAnnotations();
    }
}
