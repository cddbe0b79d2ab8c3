package dev.remedy.core.policy;

/**
 * External remediation objects (Cluster API external remediation): created from a remedy's template for a node,
 * watched, and deleted to cancel. Implemented in fence-kube and by remedy-simulation's simulated remediator.
 */
public interface ExternalRemediations {

    /** Creates the remediation object of {@code remedy} for {@code node}; idempotent. */
    void create(String node, Remedy.External remedy);

    /** How the remediation is doing, as its remediator reports it. */
    RemedyRunner.Progress progress(String node, Remedy.External remedy);

    /** Deletes the remediation object (cancels the remediator); idempotent. */
    void delete(String node, Remedy.External remedy);
}
