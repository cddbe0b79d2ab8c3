package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.agent.internal.VirtualMachine;
import dev.remedy.fence.kube.testing.BareMetalHosts;
import dev.remedy.fence.kube.testing.FakeBareMetalOperator;
import dev.remedy.fence.kube.testing.MinimalCrds;
import dev.remedy.fence.kube.testing.Namespaces;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * BareMetalHosts, VirtualMachines and their instances for the tests, written and read with the test's own client
 * (never through an agent), and the kubeconfig files the agents are configured with.
 */
final class KubeObjects {

    /** The namespace of the tests' objects. */
    static final String NAMESPACE = "metal3";

    /** The resources whose CRDs {@link #installCrds} installs. */
    static final ResourceDefinitionContext[] RESOURCES = {BareMetalHost.RESOURCE, VirtualMachine.RESOURCE,
        VirtualMachine.INSTANCES};

    private KubeObjects() {
    }

    /**
     * Creates the test namespace (a real API server refuses objects in a missing one) and installs minimal CRDs of
     * BareMetalHost, VirtualMachine and VirtualMachineInstance with the status subresource ({@link MinimalCrds}).
     */
    static void installCrds(KubernetesClient client) {
        Namespaces.ensure(client, NAMESPACE);
        MinimalCrds.install(client, RESOURCES);
    }

    /** A provisioned BareMetalHost with {@code spec.online=true}, powered on. */
    static GenericKubernetesResource host(KubernetesClient client, String name) {
        return host(client, name, true, "provisioned", true);
    }

    /** A BareMetalHost with the given {@code spec.online}, {@code status.provisioning.state} and power. */
    static GenericKubernetesResource host(KubernetesClient client, String name, boolean online, String state,
            boolean poweredOn) {
        return BareMetalHosts.create(client, NAMESPACE, name, Map.of(), online, state, poweredOn);
    }

    /** The BareMetalHosts of {@link #NAMESPACE}. */
    static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> hosts(KubernetesClient client) {
        return BareMetalHosts.hosts(client, NAMESPACE);
    }

    /** BareMetalHost {@code name} as it is on the server. */
    static GenericKubernetesResource readHost(KubernetesClient client, String name) {
        return BareMetalHosts.read(client, NAMESPACE, name);
    }

    /** The annotations of BareMetalHost {@code name}. */
    static Map<String, String> annotations(KubernetesClient client, String name) {
        return BareMetalHosts.annotations(client, NAMESPACE, name);
    }

    /** Sets (or, with a null value, removes) annotation {@code key} of BareMetalHost {@code name}. */
    static void annotate(KubernetesClient client, String name, String key, String value) {
        BareMetalHosts.annotate(client, NAMESPACE, name, key, value);
    }

    /** Sets {@code spec.<field>} of BareMetalHost {@code name}. */
    static void setSpec(KubernetesClient client, String name, String field, Object value) {
        BareMetalHosts.setSpec(client, NAMESPACE, name, field, value);
    }

    /** Sets (or, with a null value, removes) {@code status.<field>} of BareMetalHost {@code name}. */
    static void setStatus(KubernetesClient client, String name, String field, Object value) {
        BareMetalHosts.setStatus(client, NAMESPACE, name, field, value);
    }

    /** Sets {@code status.provisioning.state} of BareMetalHost {@code name}. */
    static void setProvisioningState(KubernetesClient client, String name, String state) {
        setStatus(client, name, "provisioning", new LinkedHashMap<>(Map.of("state", state)));
    }

    /** {@code status.<field>} of BareMetalHost {@code name}, or null. */
    static Object status(KubernetesClient client, String name, String field) {
        return readHost(client, name).get("status", field);
    }

    /** The fake bare-metal operator of BareMetalHost {@code name}. */
    static FakeBareMetalOperator operator(KubernetesClient client, String name) {
        return new FakeBareMetalOperator(client, NAMESPACE, name);
    }

    /** The reboot-request annotations ({@code reboot.metal3.io} and {@code reboot.metal3.io/*}) of host {@code name}. */
    static Map<String, String> rebootRequests(KubernetesClient client, String name) {
        Map<String, String> requests = new TreeMap<>();
        annotations(client, name).forEach((k, v) -> {
            if (k.equals("reboot.metal3.io") || k.startsWith("reboot.metal3.io/")) {
                requests.put(k, v);
            }
        });
        return requests;
    }

    /** A VirtualMachine {@code name} with {@code spec.<field>} set to {@code value}, without an instance. */
    static GenericKubernetesResource vm(KubernetesClient client, String name, String field, Object value) {
        return client.genericKubernetesResources(VirtualMachine.RESOURCE).inNamespace(NAMESPACE)
                .resource(new GenericKubernetesResourceBuilder().withApiVersion("kubevirt.io/v1")
                        .withKind("VirtualMachine").withNewMetadata().withName(name).withNamespace(NAMESPACE)
                        .endMetadata().addToAdditionalProperties("spec", new LinkedHashMap<>(Map.of(field, value)))
                        .build()).create();
    }

    /** The {@code spec} of VirtualMachine {@code name}. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> vmSpec(KubernetesClient client, String name) {
        return (Map<String, Object>) client.genericKubernetesResources(VirtualMachine.RESOURCE).inNamespace(NAMESPACE)
                .withName(name).get().getAdditionalProperties().get("spec");
    }

    /**
     * Writes a kubeconfig for the server at {@code url} into {@code dir}, with no user (the agents authenticate with
     * their {@code token} parameter), not verifying the mock server's self-signed certificate.
     */
    static Path kubeconfig(Path dir, String name, String url) {
        String text = String.join("\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: test",
                "  cluster:",
                "    server: " + url,
                "    insecure-skip-tls-verify: true",
                "contexts:",
                "- name: test",
                "  context:",
                "    cluster: test",
                "    user: remedy",
                "    namespace: " + NAMESPACE,
                "current-context: test",
                "users:",
                "- name: remedy",
                "  user: {}",
                "");
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
