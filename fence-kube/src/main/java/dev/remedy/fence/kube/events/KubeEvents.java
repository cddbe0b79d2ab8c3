package dev.remedy.fence.kube.events;

import io.fabric8.kubernetes.api.model.ObjectReference;
import java.util.Objects;

/**
 * Where fence-kube reports what it did, as Kubernetes Events ({@code events.k8s.io/v1}) on the object concerned.
 * Implementations aggregate repeats into a series instead of writing one Event per repeat, and never throw: a
 * report that cannot be written is logged, and what it reported goes on.
 */
@FunctionalInterface
public interface KubeEvents {

    /** The most bytes (UTF-8) of a note an Event keeps. */
    int NOTE_LIMIT = 1024;

    /** Reports nothing: for a host that does not want Events. */
    KubeEvents NONE = event -> { };

    /** Reports {@code event}. */
    void publish(Note event);

    /**
     * One report.
     *
     * @param regarding the object it is about (a Node, a NodeFence, a ConfigMap)
     * @param warning   whether it is a Warning (otherwise Normal)
     * @param reason    a short UpperCamelCase reason, such as {@code FenceStarted} or {@code StormRefused}
     * @param action    what was done or refused, such as {@code Fence} or {@code Release}
     * @param note      the sentence for people (at most 1 KiB is kept; no secret)
     */
    record Note(ObjectReference regarding, boolean warning, String reason, String action, String note) {

        /** Validates that every field is present. */
        public Note {
            Objects.requireNonNull(regarding, "regarding");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(note, "note");
        }
    }
}
