package dev.remedy.fence.kube.testing;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The tests' namespaces: a real API server refuses objects in a namespace that does not exist; the mock does not. */
public final class Namespaces {

    private Namespaces() {
    }

    /** Creates each namespace that does not exist yet. */
    public static void ensure(KubernetesClient client, String... names) {
        for (String name : names) {
            if (client.namespaces().withName(name).get() == null) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata()
                        .build()).create();
            }
        }
    }
}
