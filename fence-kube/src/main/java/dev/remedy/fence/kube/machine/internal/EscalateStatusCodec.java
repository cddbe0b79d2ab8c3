package dev.remedy.fence.kube.machine.internal;

import dev.remedy.core.rules.RemediationCondition;
import dev.remedy.core.rules.RemediationPhase;
import dev.remedy.core.rules.RemediationStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code escalate} strategy's status in a remediation object's {@code status}: {@code phase} (the phase's code),
 * {@code retryCount}, {@code phaseSince} (RFC 3339) and {@code conditions} ({@code type}, {@code status} True, False
 * or Unknown, {@code reason}, {@code message}, {@code lastTransitionTime}). Other status fields, and conditions of
 * other types (written by another controller), are kept as they are.
 */
public final class EscalateStatusCodec {

    private static final Set<String> OURS = Set.of(RemediationCondition.PROCESSING, RemediationCondition.SUCCEEDED,
            RemediationCondition.PERMANENT_NODE_DELETION_EXPECTED);

    private EscalateStatusCodec() {
    }

    /**
     * Reads the status; an object without a phase is new ({@link RemediationStatus#initial()}).
     *
     * @throws IllegalArgumentException naming the field that cannot be read
     */
    public static RemediationStatus read(Object status) {
        if (!(status instanceof Map<?, ?> map) || map.get("phase") == null) {
            return RemediationStatus.initial();
        }
        RemediationPhase phase = RemediationPhase.fromCode(String.valueOf(map.get("phase")));
        Object retries = map.get("retryCount");
        int retryCount = retries instanceof Number n ? n.intValue() : 0;
        Optional<Instant> since = Optional.ofNullable(map.get("phaseSince")).map(v -> time("status.phaseSince", v));
        List<RemediationCondition> conditions = new ArrayList<>();
        if (map.get("conditions") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c && OURS.contains(String.valueOf(c.get("type")))) {
                    conditions.add(new RemediationCondition(String.valueOf(c.get("type")),
                            RemediationCondition.Status.valueOf(String.valueOf(c.get("status"))
                                    .toUpperCase(Locale.ROOT)),
                            String.valueOf(c.get("reason")), Objects.requireNonNullElse((Object) c.get("message"), "").toString(),
                            time("status.conditions[" + c.get("type") + "].lastTransitionTime",
                                    c.get("lastTransitionTime"))));
                }
            }
        }
        return new RemediationStatus(phase, retryCount, since, conditions);
    }

    /** The object's {@code status} with {@code next} written over it: other fields and conditions kept. */
    public static Map<String, Object> write(Object previous, RemediationStatus next) {
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> conditions = new ArrayList<>();
        if (previous instanceof Map<?, ?> map) {
            map.forEach((k, v) -> out.put(String.valueOf(k), v));
            if (map.get("conditions") instanceof List<?> list) {
                list.stream().filter(o -> !(o instanceof Map<?, ?> c && OURS.contains(String.valueOf(c.get("type")))))
                        .forEach(conditions::add);
            }
        }
        for (RemediationCondition c : next.conditions()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", c.type());
            m.put("status", switch (c.status()) {
                case TRUE -> "True";
                case FALSE -> "False";
                case UNKNOWN -> "Unknown";
            });
            m.put("reason", c.reason());
            m.put("message", c.message());
            m.put("lastTransitionTime", c.lastTransitionTime().toString());
            conditions.add(m);
        }
        out.put("phase", next.phase().code());
        out.put("retryCount", next.retryCount());
        next.phaseSince().ifPresentOrElse(t -> out.put("phaseSince", t.toString()), () -> out.remove("phaseSince"));
        out.put("conditions", conditions);
        return out;
    }

    private static Instant time(String field, Object value) {
        try {
            return Instant.parse(String.valueOf(value));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + ": '" + value + "' is not an RFC 3339 time", e);
        }
    }
}
