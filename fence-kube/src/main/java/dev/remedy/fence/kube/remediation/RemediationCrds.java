package dev.remedy.fence.kube.remediation;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * The CRDs of {@link NodeFenceRemediation} and {@link NodeFenceRemediationTemplate} shipped in this jar (generated at
 * build time; {@code deploy/crds/} holds the same files), and how to apply them.
 */
public final class RemediationCrds {

    /** The CRDs' names. */
    public static final List<String> NAMES = List.of(NodeFenceRemediation.PLURAL + "." + NodeFenceRemediation.GROUP,
            NodeFenceRemediationTemplate.PLURAL + "." + NodeFenceRemediation.GROUP);

    private RemediationCrds() {
    }

    /** Where the CRD {@code name} is on the class path. */
    public static String resource(String name) {
        return "META-INF/fabric8/" + name + "-v1.yml";
    }

    /**
     * The shipped CRDs, read from the class path.
     *
     * @throws IllegalStateException if the jar does not hold them (a build that skipped the CRD generator)
     */
    public static List<CustomResourceDefinition> load() {
        return NAMES.stream().map(RemediationCrds::load).toList();
    }

    private static CustomResourceDefinition load(String name) {
        String path = resource(name);
        try (InputStream in = RemediationCrds.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the CRD " + path + " is not on the class path; the fence-kube jar is "
                        + "built with the fabric8 CRD generator, which writes it: rebuild fence-kube");
            }
            return Serialization.unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the CRD " + path, e);
        }
    }

    /**
     * Creates the shipped CRDs, or replaces those in the cluster with them.
     *
     * @throws KubernetesClientException if the API server refuses (no RBAC permission on customresourcedefinitions:
     *                                   then apply {@code deploy/crds/} by hand)
     */
    public static void apply(KubernetesClient client) {
        Objects.requireNonNull(client, "client");
        for (CustomResourceDefinition crd : load()) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd)
                    .createOr(NonDeletingOperation::update);
        }
    }
}
