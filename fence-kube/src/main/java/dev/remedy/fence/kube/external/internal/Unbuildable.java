package dev.remedy.fence.kube.external.internal;

/** A remediation object cannot be made; the message says what is wrong, with which object, and what to do. */
public final class Unbuildable extends Exception {

    private static final long serialVersionUID = 1L;

    /** With {@code message} for people. */
    public Unbuildable(String message) {
        super(message);
    }
}
