package dev.remedy.core.policy;

/**
 * External remediation objects: created from a remedy's template (or inline object) for a node, followed, and deleted
 * to cancel. Implemented in fence-kube ({@code dev.remedy.fence.kube.external.KubeExternalRemediations}) and by
 * remedy-simulation's simulated remediator.
 */
public interface ExternalRemediations {

    /** Creates the remediation object of {@code remedy} for {@code node}; idempotent. */
    void create(String node, Remedy.External remedy);

    /** How the remediation is doing, as its remediator reports it. */
    RemedyRunner.Progress progress(String node, Remedy.External remedy);

    /**
     * Deletes the remediation object (cancels the remediator); idempotent. With
     * {@link RemedyRunner.Cancellation#TIMED_OUT} the remediator is told it timed out first (NodeHealthCheck's
     * timed-out annotation), so it stops rather than finishes.
     */
    void delete(String node, Remedy.External remedy, RemedyRunner.Cancellation cause);
}
