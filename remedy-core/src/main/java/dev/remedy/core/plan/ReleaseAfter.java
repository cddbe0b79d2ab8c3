package dev.remedy.core.plan;

/**
 * Which evidence lets the engine release a fenced node's workloads: a topology's {@code releaseAfter}.
 */
public enum ReleaseAfter {
    /**
     * The default: the node is confirmed stopped (power read OFF, a boot after the decision, or an administrator);
     * release sets the out-of-service taint (or deletes the Node object) and force-deletes the pods.
     */
    POWER("power"),
    /**
     * The node is cut off from the fabrics its workloads use: every method of an isolation level read isolated,
     * as Pacemaker treats fabric fencing ({@code fence_scsi}, {@code fence_ifmib}). Only for isolation methods whose
     * isolation persists (power methods, or fabric methods whose agent says
     * {@link dev.remedy.spi.FenceAgentProvider#isolationPersists}); the machine may still run, so release
     * force-deletes the pods and never sets the out-of-service taint, which Kubernetes reserves for nodes that are
     * shut down. The node stays isolated until it is powered off by the power-management step, reboots, or an
     * administrator confirms it is off.
     */
    ISOLATION("isolation");

    private final String code;

    ReleaseAfter(String code) {
        this.code = code;
    }

    /** The name written in a topology: {@code power} or {@code isolation}. */
    public String code() {
        return code;
    }
}
