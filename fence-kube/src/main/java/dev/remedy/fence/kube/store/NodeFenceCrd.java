package dev.remedy.fence.kube.store;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The {@code nodefences.remedy.dev} CustomResourceDefinition shipped in this jar (generated from
 * {@link NodeFenceResource} at build time; {@code deploy/crds/} in the repository holds the same file), and how to
 * apply it. An operator allowed to write CRDs applies it at start; otherwise an admin applies
 * {@code deploy/crds/nodefences.remedy.dev-v1.yml} with {@code kubectl apply -f}.
 */
public final class NodeFenceCrd {

    /** The CRD's name. */
    public static final String NAME = NodeFenceResource.PLURAL + "." + NodeFenceResource.GROUP;

    /** Where the CRD is on the class path. */
    public static final String RESOURCE = "META-INF/fabric8/" + NAME + "-v1.yml";

    private NodeFenceCrd() {
    }

    /**
     * The shipped CRD, read from the class path.
     *
     * @throws IllegalStateException if the jar does not hold it (a build that skipped the CRD generator)
     */
    public static CustomResourceDefinition load() {
        try (InputStream in = NodeFenceCrd.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the NodeFence CRD " + RESOURCE + " is not on the class path; the "
                        + "fence-kube jar is built with the fabric8 CRD generator, which writes it: rebuild fence-kube");
            }
            return Serialization.unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the NodeFence CRD " + RESOURCE, e);
        }
    }

    /**
     * Creates the shipped CRD, or replaces the one in the cluster with it. Blocks for one or two API calls.
     *
     * @return the CRD as the API server stored it
     * @throws KubernetesClientException if the API server refuses (for example, no RBAC permission on
     *                                   customresourcedefinitions: then apply {@code deploy/crds/} by hand)
     */
    public static CustomResourceDefinition apply(KubernetesClient client) {
        Objects.requireNonNull(client, "client");
        return client.apiextensions().v1().customResourceDefinitions().resource(load())
                .createOr(NonDeletingOperation::update);
    }

    /**
     * Waits until the API server reports the CRD {@code Established} (serving the resource), at most
     * {@code timeout}.
     *
     * @throws IllegalStateException if it is not established in time; the message names the CRD and what to check
     */
    public static void awaitEstablished(KubernetesClient client, Duration timeout) {
        Objects.requireNonNull(client, "client");
        try {
            client.apiextensions().v1().customResourceDefinitions().withName(NAME)
                    .waitUntilCondition(NodeFenceCrd::established, timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("the CRD " + NAME + " was not established within " + timeout + " ("
                    + e.getMessage() + "); check it with kubectl describe crd " + NAME, e);
        }
    }

    /** Whether {@code crd} has the condition Established=True. */
    static boolean established(CustomResourceDefinition crd) {
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
