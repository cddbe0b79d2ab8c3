package dev.remedy.fence.kube.testing;

import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * BareMetalHosts for the tests, written and read with the test's own client (never through the code under test). The
 * CRD must be installed first ({@link MinimalCrds}), so that status writes go through the status subresource.
 */
public final class BareMetalHosts {

    private static final int CONFLICT_ATTEMPTS = 5;

    private BareMetalHosts() {
    }

    /**
     * Creates BareMetalHost {@code namespace/name} with the given annotations (none: no annotations field),
     * {@code spec.online}, {@code status.provisioning.state} and power ({@code status.poweredOn}); returns it as
     * stored.
     */
    public static GenericKubernetesResource create(KubernetesClient client, String namespace, String name,
            Map<String, String> annotations, boolean online, String state, boolean poweredOn) {
        GenericKubernetesResource created = hosts(client, namespace).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("metal3.io/v1alpha1").withKind("BareMetalHost").withNewMetadata().withName(name)
                .withNamespace(namespace).withAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations))
                .endMetadata()
                .addToAdditionalProperties("spec", new LinkedHashMap<>(Map.of("online", online))).build()).create();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("poweredOn", poweredOn);
        status.put("provisioning", new LinkedHashMap<>(Map.of("state", state)));
        created.setAdditionalProperty("status", status);
        return hosts(client, namespace).resource(created).updateStatus();
    }

    /** The BareMetalHosts of {@code namespace}. */
    public static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> hosts(KubernetesClient client, String namespace) {
        return client.genericKubernetesResources(BareMetalHost.RESOURCE).inNamespace(namespace);
    }

    /** BareMetalHost {@code namespace/name} as it is on the server, or null. */
    public static GenericKubernetesResource read(KubernetesClient client, String namespace, String name) {
        return hosts(client, namespace).withName(name).get();
    }

    /** The annotations of BareMetalHost {@code namespace/name}. */
    public static Map<String, String> annotations(KubernetesClient client, String namespace, String name) {
        return Optional.ofNullable(read(client, namespace, name).getMetadata().getAnnotations()).orElse(Map.of());
    }

    /** Sets (or, with a null value, removes) annotation {@code key} of BareMetalHost {@code namespace/name}. */
    public static void annotate(KubernetesClient client, String namespace, String name, String key, String value) {
        hosts(client, namespace).withName(name).edit(h -> {
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

    /** Sets {@code spec.<field>} of BareMetalHost {@code namespace/name}. */
    @SuppressWarnings("unchecked")
    public static void setSpec(KubernetesClient client, String namespace, String name, String field, Object value) {
        hosts(client, namespace).withName(name).edit(h -> {
            ((Map<String, Object>) h.getAdditionalProperties().computeIfAbsent("spec", k -> new LinkedHashMap<>()))
                    .put(field, value);
            return h;
        });
    }

    /**
     * Sets (or, with a null value, removes) {@code status.<field>} of BareMetalHost {@code namespace/name}: read,
     * change, write the status subresource, again (at most 5 times) when a real API server answers 409 Conflict
     * because another client wrote the host in between (the mock accepts the stale write).
     */
    @SuppressWarnings("unchecked")
    public static void setStatus(KubernetesClient client, String namespace, String name, String field, Object value) {
        for (int attempt = 1; ; attempt++) {
            GenericKubernetesResource host = read(client, namespace, name);
            Map<String, Object> status = (Map<String, Object>) host.getAdditionalProperties()
                    .computeIfAbsent("status", k -> new LinkedHashMap<>());
            if (value == null) {
                status.remove(field);
            } else {
                status.put(field, value);
            }
            try {
                hosts(client, namespace).resource(host).updateStatus();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == CONFLICT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
