package dev.remedy.core.rules;

/**
 * A Kubernetes owner reference: the owned object is garbage-collected with its owner.
 *
 * @param apiVersion the owner's API version, for example {@code cluster.x-k8s.io/v1beta1}
 * @param kind       the owner's kind, for example {@code Machine}
 * @param name       the owner's name
 * @param uid        the owner's uid
 * @param controller whether the owner is the managing controller
 */
public record OwnerReference(String apiVersion, String kind, String name, String uid, boolean controller) {

    /** Validates the fields. */
    public OwnerReference {
        Texts.requireText(apiVersion, "apiVersion");
        Texts.requireText(kind, "kind");
        Texts.requireText(name, "name");
        Texts.requireText(uid, "uid");
    }
}
