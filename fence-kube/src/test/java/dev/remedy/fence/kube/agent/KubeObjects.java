package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.fence.kube.agent.internal.VirtualMachine;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * BareMetalHosts, VirtualMachines and their instances for the tests, written and read with the test's own client
 * (never through an agent), and the kubeconfig files the agents are configured with.
 */
final class KubeObjects {

    /** The namespace of the tests' objects. */
    static final String NAMESPACE = "metal3";

    private KubeObjects() {
    }

    /**
     * Installs minimal CRDs of BareMetalHost, VirtualMachine and VirtualMachineInstance with the status subresource,
     * so that the mock server applies its rules (a write of the object ignores its status, and the reverse), as a
     * real API server does for the real CRDs.
     */
    static void installCrds(KubernetesClient client) {
        for (ResourceDefinitionContext resource : new ResourceDefinitionContext[] {BareMetalHost.RESOURCE,
                VirtualMachine.RESOURCE, VirtualMachine.INSTANCES}) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd(resource)).create();
        }
    }

    private static CustomResourceDefinition crd(ResourceDefinitionContext r) {
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName(r.getPlural() + "." + r.getGroup())
                .endMetadata().withNewSpec().withGroup(r.getGroup()).withScope("Namespaced").withNewNames()
                .withKind(r.getKind()).withPlural(r.getPlural()).withSingular(r.getKind().toLowerCase(Locale.ROOT)).endNames()
                .addNewVersion().withName(r.getVersion()).withServed(true).withStorage(true).withNewSubresources()
                .withNewStatus().endStatus().endSubresources().withNewSchema().withNewOpenAPIV3Schema()
                .withType("object").withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
                .endVersion().endSpec().build();
    }

    /** A provisioned BareMetalHost with {@code spec.online=true}, powered on. */
    static GenericKubernetesResource host(KubernetesClient client, String name) {
        return host(client, name, true, "provisioned", true);
    }

    /** A BareMetalHost with the given {@code spec.online}, {@code status.provisioning.state} and power. */
    static GenericKubernetesResource host(KubernetesClient client, String name, boolean online, String state,
            boolean poweredOn) {
        GenericKubernetesResource created = hosts(client).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("metal3.io/v1alpha1").withKind("BareMetalHost").withNewMetadata().withName(name)
                .withNamespace(NAMESPACE).endMetadata()
                .addToAdditionalProperties("spec", new LinkedHashMap<>(Map.of("online", online))).build()).create();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("poweredOn", poweredOn);
        status.put("provisioning", new LinkedHashMap<>(Map.of("state", state)));
        created.setAdditionalProperty("status", status);
        return hosts(client).resource(created).updateStatus();
    }

    /** The BareMetalHosts of {@link #NAMESPACE}. */
    static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> hosts(KubernetesClient client) {
        return client.genericKubernetesResources(BareMetalHost.RESOURCE).inNamespace(NAMESPACE);
    }

    /** BareMetalHost {@code name} as it is on the server. */
    static GenericKubernetesResource readHost(KubernetesClient client, String name) {
        return hosts(client).withName(name).get();
    }

    /** The annotations of BareMetalHost {@code name}. */
    static Map<String, String> annotations(KubernetesClient client, String name) {
        return Optional.ofNullable(readHost(client, name).getMetadata().getAnnotations()).orElse(Map.of());
    }

    /** Sets (or, with a null value, removes) annotation {@code key} of BareMetalHost {@code name}. */
    static void annotate(KubernetesClient client, String name, String key, String value) {
        hosts(client).withName(name).edit(h -> {
            Map<String, String> annotations = new LinkedHashMap<>(Optional.ofNullable(h.getMetadata()
                    .getAnnotations()).orElse(Map.of()));
            if (value == null) {
                annotations.remove(key);
            } else {
                annotations.put(key, value);
            }
            h.getMetadata().setAnnotations(annotations);
            return h;
        });
    }

    /** Sets {@code spec.<field>} of BareMetalHost {@code name}. */
    @SuppressWarnings("unchecked")
    static void setSpec(KubernetesClient client, String name, String field, Object value) {
        hosts(client).withName(name).edit(h -> {
            ((Map<String, Object>) h.getAdditionalProperties().computeIfAbsent("spec", k -> new LinkedHashMap<>()))
                    .put(field, value);
            return h;
        });
    }

    /** Sets (or, with a null value, removes) {@code status.<field>} of BareMetalHost {@code name}. */
    @SuppressWarnings("unchecked")
    static void setStatus(KubernetesClient client, String name, String field, Object value) {
        GenericKubernetesResource host = readHost(client, name);
        Map<String, Object> status = (Map<String, Object>) host.getAdditionalProperties()
                .computeIfAbsent("status", k -> new LinkedHashMap<>());
        if (value == null) {
            status.remove(field);
        } else {
            status.put(field, value);
        }
        hosts(client).resource(host).updateStatus();
    }

    /** Sets {@code status.provisioning.state} of BareMetalHost {@code name}. */
    static void setProvisioningState(KubernetesClient client, String name, String state) {
        setStatus(client, name, "provisioning", new LinkedHashMap<>(Map.of("state", state)));
    }

    /** {@code status.<field>} of BareMetalHost {@code name}, or null. */
    static Object status(KubernetesClient client, String name, String field) {
        return readHost(client, name).get("status", field);
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
