package dev.remedy.core.rules;

/**
 * The machine a remediation is for.
 *
 * @param apiVersion the machine's API version, for example {@code cluster.x-k8s.io/v1beta1}
 * @param kind       the machine's kind, for example {@code Machine}
 * @param name       the machine's name
 * @param namespace  the machine's namespace
 * @param uid        the machine's uid
 */
public record MachineRef(String apiVersion, String kind, String name, String namespace, String uid) {

    /** Validates the fields. */
    public MachineRef {
        Texts.requireText(apiVersion, "apiVersion");
        Texts.requireText(kind, "kind");
        Texts.requireText(name, "name");
        Texts.requireText(namespace, "namespace");
        Texts.requireText(uid, "uid");
    }
}
