package dev.remedy.fence.kube.external.internal;

import dev.remedy.core.policy.RemedyRunner.Progress;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a remediation object reports its outcome. A remediation CR, as NodeHealthCheck reads it: condition
 * {@code Succeeded=True} is done, {@code Succeeded=False} failed (escalate at once), anything else running. A Job:
 * {@code status.succeeded} of 1 or more, or condition {@code Complete=True}, is done; {@code Failed=True} failed.
 */
public final class Outcomes {

    private Outcomes() {
    }

    /** The progress {@code object} reports; {@code job} says whether it is a Job. */
    public static Progress of(GenericKubernetesResource object, boolean job) {
        Map<?, ?> status = object.getAdditionalProperties().get("status") instanceof Map<?, ?> s ? s : Map.of();
        if (job) {
            boolean succeeded = status.get("succeeded") instanceof Number n && n.intValue() >= 1;
            if (succeeded || condition(status, "Complete").filter("True"::equals).isPresent()) {
                return Progress.DONE;
            }
            return condition(status, "Failed").filter("True"::equals).isPresent() ? Progress.FAILED
                    : Progress.RUNNING;
        }
        return switch (condition(status, "Succeeded").orElse("Unknown")) {
            case "True" -> Progress.DONE;
            case "False" -> Progress.FAILED;
            default -> Progress.RUNNING;
        };
    }

    /** The {@code status} of condition {@code type}, if present. */
    private static Optional<String> condition(Map<?, ?> status, String type) {
        if (status.get("conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> m && type.equals(m.get("type")) && m.get("status") instanceof String s) {
                    return Optional.of(s);
                }
            }
        }
        return Optional.empty();
    }
}
