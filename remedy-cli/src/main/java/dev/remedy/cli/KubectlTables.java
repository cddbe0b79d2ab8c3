package dev.remedy.cli;

import dev.remedy.fence.kube.store.NodeFenceResource;
import dev.remedy.fence.kube.store.NodeFenceSpec;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/** What {@code kubectl get nodefences} and {@code kubectl get events} print, for the demo. */
final class KubectlTables {

    private static final String FENCES = "%-10s %-10s %-18s %-9s %-8s %-40s %s%n";
    private static final String EVENTS = "%-10s %-8s %-20s %-20s %s%n";

    private KubectlTables() {
    }

    /** The NodeFences' columns: NAME, NODE, STEP, STATE, RETRIES, REASON, AGE. */
    static void nodeFences(PrintWriter out, List<NodeFenceResource> fences, Instant now) {
        out.println("   $ kubectl get nodefences");
        out.printf(Locale.ROOT, "   " + FENCES, "NAME", "NODE", "STEP", "STATE", "RETRIES", "REASON", "AGE");
        for (NodeFenceResource fence : fences) {
            NodeFenceSpec spec = fence.getSpec();
            out.printf(Locale.ROOT, "   " + FENCES, fence.getMetadata().getName(), text(spec.getNode()),
                    text(spec.getStep()), text(spec.getState()), spec.getRetries() == null ? "" : spec.getRetries(),
                    abbreviate(text(spec.getReason()), 40),
                    age(parse(fence.getMetadata().getCreationTimestamp()), now));
        }
    }

    /** The Events' columns, oldest first: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE. */
    static void events(PrintWriter out, List<Event> events, Instant now) {
        out.println("   $ kubectl get events --sort-by=.eventTime");
        out.printf(Locale.ROOT, "   " + EVENTS, "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE");
        events.stream().sorted(Comparator.comparing(KubectlTables::lastSeen)).forEach(event -> out.printf(Locale.ROOT,
                "   " + EVENTS, age(Optional.of(lastSeen(event)), now), text(event.getType()),
                text(event.getReason()), event.getRegarding().getKind().toLowerCase(Locale.ROOT) + "/"
                        + event.getRegarding().getName(), text(event.getNote())));
    }

    /** kubectl's age: {@code 45s}, {@code 3m12s}, {@code 2h5m}. */
    static String age(Optional<Instant> since, Instant now) {
        if (since.isEmpty()) {
            return "<unknown>";
        }
        long seconds = Math.max(0, Duration.between(since.get(), now).toSeconds());
        if (seconds < 120) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m" + (seconds % 60 == 0 ? "" : seconds % 60 + "s");
        }
        return seconds / 3600 + "h" + (seconds % 3600 / 60) + "m";
    }

    private static Instant lastSeen(Event event) {
        MicroTime series = event.getSeries() == null ? null : event.getSeries().getLastObservedTime();
        return parse(series != null ? series.getTime() : event.getEventTime() != null
                ? event.getEventTime().getTime() : event.getDeprecatedLastTimestamp()).orElse(Instant.EPOCH);
    }

    private static Optional<Instant> parse(String time) {
        try {
            return Optional.ofNullable(time).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String text(String value) {
        return Objects.requireNonNullElse(value, "");
    }

    private static String abbreviate(String value, int width) {
        return value.length() <= width ? value : value.substring(0, width - 3) + "...";
    }
}
