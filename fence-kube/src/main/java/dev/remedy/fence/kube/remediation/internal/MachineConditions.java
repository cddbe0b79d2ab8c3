package dev.remedy.fence.kube.remediation.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Cluster API Machine's conditions, written where both API versions' readers look: for a {@code v1beta2} Machine,
 * {@code status.conditions} ({@code metav1.Condition}) and {@code status.deprecated.v1beta1.conditions} (the v1beta1
 * shape, with {@code severity}); for a {@code v1beta1} Machine, {@code status.conditions} (v1beta1 shape) and
 * {@code status.v1beta2.conditions}. Other conditions are kept; {@code lastTransitionTime} changes only with the
 * status.
 */
public final class MachineConditions {

    /** The Cluster API group. */
    public static final String GROUP = "cluster.x-k8s.io";
    /** Condition type the external remediator keeps up to date (MachineHealthCheck sets it first). */
    public static final String EXTERNALLY_REMEDIATED = "ExternallyRemediated";
    /** Condition type by which the Machine's owner (the MachineSet) is asked to remediate (replace) it. */
    public static final String OWNER_REMEDIATED = "OwnerRemediated";
    /** Cluster API's reason for both conditions while remediation is awaited. */
    public static final String WAITING_FOR_REMEDIATION = "WaitingForRemediation";

    private MachineConditions() {
    }

    /** The Machine resource at {@code apiVersion} ({@code cluster.x-k8s.io/v1beta1} or {@code /v1beta2}). */
    public static ResourceDefinitionContext context(String apiVersion) {
        return new ResourceDefinitionContext.Builder().withGroup(GROUP)
                .withVersion(apiVersion.substring(apiVersion.indexOf('/') + 1)).withKind("Machine")
                .withPlural("machines").withNamespaced(true).build();
    }

    /** Whether {@code owner} is a Cluster API Machine. */
    public static boolean isMachine(OwnerReference owner) {
        return "Machine".equals(owner.getKind()) && owner.getApiVersion() != null
                && owner.getApiVersion().startsWith(GROUP + "/");
    }

    /** The name of the Machine's Node, {@code status.nodeRef.name}, once the Machine has one. */
    public static Optional<String> nodeName(GenericKubernetesResource machine) {
        return Optional.ofNullable(map(machine.getAdditionalProperties().get("status")))
                .map(status -> map(status.get("nodeRef"))).map(ref -> ref.get("name")).map(Object::toString);
    }

    /**
     * Sets condition {@code type} of {@code machine} (in place) in both places, {@code severity} for the v1beta1
     * shape of a False condition ({@code Info}, {@code Warning} or {@code Error}).
     *
     * @return whether anything changed
     */
    public static boolean set(GenericKubernetesResource machine, String type, String status, String reason,
                              String message, String severity, Instant now) {
        boolean v1beta2 = machine.getApiVersion().endsWith("/v1beta2");
        Map<String, Object> root = child(machine.getAdditionalProperties(), "status");
        List<Map<String, Object>> modern = conditions(v1beta2 ? root : child(root, "v1beta2"));
        List<Map<String, Object>> legacy = conditions(v1beta2 ? child(child(root, "deprecated"), "v1beta1") : root);
        boolean changed = set(modern, type, status, reason, message, null, now);
        changed |= set(legacy, type, status, reason, message, "False".equals(status) ? severity : null, now);
        return changed;
    }

    /** The status of condition {@code type} in the Machine's current API version's place, if present. */
    public static Optional<String> status(GenericKubernetesResource machine, String type) {
        Map<String, Object> root = map(machine.getAdditionalProperties().get("status"));
        Object list = root == null ? null : root.get("conditions");
        if (!(list instanceof List<?> items)) {
            return Optional.empty();
        }
        return items.stream().map(MachineConditions::map).filter(Objects::nonNull)
                .filter(c -> type.equals(c.get("type"))).map(c -> String.valueOf(c.get("status"))).findFirst();
    }

    private static boolean set(List<Map<String, Object>> conditions, String type, String status, String reason,
                               String message, String severity, Instant now) {
        Map<String, Object> current = conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst()
                .orElse(null);
        if (current != null && status.equals(current.get("status")) && reason.equals(current.get("reason"))
                && message.equals(current.get("message")) && Objects.equals(severity, current.get("severity"))) {
            return false;
        }
        Map<String, Object> next = new LinkedHashMap<>();
        next.put("type", type);
        next.put("status", status);
        if (severity != null) {
            next.put("severity", severity);
        }
        next.put("reason", reason);
        next.put("message", message);
        next.put("lastTransitionTime", current != null && status.equals(current.get("status"))
                ? current.get("lastTransitionTime") : RemediationConditions.rfc3339(now));
        if (current != null) {
            conditions.set(conditions.indexOf(current), next);
        } else {
            conditions.add(next);
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(Map<String, Object> parent) {
        Object list = parent.get("conditions");
        List<Map<String, Object>> copy = new ArrayList<>();
        if (list instanceof List<?> items) {
            items.forEach(item -> copy.add(new LinkedHashMap<>((Map<String, Object>) item)));
        }
        parent.put("conditions", copy);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        Map<String, Object> child = value instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m)
                : new LinkedHashMap<>();
        parent.put(key, child);
        return child;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }
}
