package dev.remedy.simulation;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.policy.NodeRole;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.UnhealthyCondition;
import dev.remedy.core.storm.StormSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Policies of the shipped scenarios: Ready=Unknown or Ready=False for 5 minutes, healthy for 1 minute to end. */
final class Policies {

    static final Remedy FENCE = new Remedy.Fence("fence", Duration.ofMinutes(10));
    static final Remedy REBOOT = new Remedy.External("reboot", Duration.ofMinutes(10),
            Map.of("apiVersion", "self-node-remediation.medik8s.io/v1alpha1", "kind", "SelfNodeRemediationTemplate"));

    private Policies() {
    }

    /** Workers, fenced by the engine, with the given storm protection. */
    static Policy workers(List<Remedy> ladder, StormSettings storm) {
        return new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "Unknown", Duration.ofMinutes(5)),
                        new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5))),
                ladder, Policy.DEFAULT_EXCLUSION_LABEL, Duration.ofMinutes(1), List.of(), storm);
    }

    /** Workers, fenced by the engine, with the default storm protection. */
    static Policy fencing() {
        return workers(List.of(FENCE), StormSettings.ofDefaults());
    }
}
