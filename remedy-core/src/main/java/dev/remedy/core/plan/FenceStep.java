package dev.remedy.core.plan;

import java.util.Arrays;

/** The three steps of a fence flow, in order. {@link #code()} is the persisted form. */
public enum FenceStep {
    /** Keep new work off the node and cut it off (cordon, taint, fabric fencing, soft fencing). */
    ISOLATION("isolation"),
    /** Power the node off, confirm it is off, release its workloads, power it on again. */
    POWER_MANAGEMENT("power_management"),
    /** Once the node is back and Ready: lift taints, uncordon, un-fence. */
    RECOVERY("recovery");

    private final String code;

    FenceStep(String code) {
        this.code = code;
    }

    /** The stable persisted and configuration name. */
    public String code() {
        return code;
    }

    /** The step with this code. */
    public static FenceStep fromCode(String code) {
        return Arrays.stream(values()).filter(s -> s.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fence step '" + code + "'"));
    }
}
