package dev.remedy.fence.kube.testing;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Minimal CustomResourceDefinitions of other projects' resources (BareMetalHost, Machine, VirtualMachine...) for the
 * tests: namespaced, one served and stored version, a status subresource, and a structural schema that keeps every
 * field ({@code type: object} with {@code x-kubernetes-preserve-unknown-fields: true}), which a real API server
 * accepts. With the status subresource the mock API server applies its rules too (a write of the object leaves its
 * status alone, a status write leaves the rest alone), as a real server does for the projects' own CRDs.
 */
public final class MinimalCrds {

    private MinimalCrds() {
    }

    /**
     * Creates the CRD of each resource, or replaces one of the same name whose spec differs (another version of the
     * resource: the mock API server only, since a real one refuses to drop a version objects were stored in).
     */
    public static void install(KubernetesClient client, ResourceDefinitionContext... resources) {
        for (ResourceDefinitionContext resource : resources) {
            CustomResourceDefinition wanted = crd(resource);
            CustomResourceDefinition existing = client.apiextensions().v1().customResourceDefinitions()
                    .withName(wanted.getMetadata().getName()).get();
            if (existing == null) {
                client.apiextensions().v1().customResourceDefinitions().resource(wanted).create();
            } else if (!existing.getSpec().getVersions().get(0).getName().equals(resource.getVersion())) {
                wanted.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
                client.apiextensions().v1().customResourceDefinitions().resource(wanted).update();
            }
        }
    }

    /**
     * Waits until a real API server reports each resource's CRD {@code Established}, at most {@code timeout} each.
     *
     * @throws IllegalStateException naming the CRD if one is not established in time
     */
    public static void awaitEstablished(KubernetesClient client, Duration timeout,
            ResourceDefinitionContext... resources) {
        for (ResourceDefinitionContext resource : resources) {
            String name = name(resource);
            try {
                client.apiextensions().v1().customResourceDefinitions().withName(name).waitUntilCondition(
                        crd -> crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
                                && crd.getStatus().getConditions().stream().anyMatch(c -> "Established"
                                        .equals(c.getType()) && "True".equals(c.getStatus())),
                        timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (KubernetesClientException e) {
                throw new IllegalStateException("the test CRD " + name + " was not established within " + timeout
                        + ": " + e.getMessage(), e);
            }
        }
    }

    private static String name(ResourceDefinitionContext r) {
        return r.getPlural() + "." + r.getGroup();
    }

    private static CustomResourceDefinition crd(ResourceDefinitionContext r) {
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName(name(r)).endMetadata()
                .withNewSpec().withGroup(r.getGroup()).withScope("Namespaced").withNewNames().withKind(r.getKind())
                .withPlural(r.getPlural()).withSingular(r.getKind().toLowerCase(Locale.ROOT)).endNames()
                .addNewVersion().withName(r.getVersion()).withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
    }
}
