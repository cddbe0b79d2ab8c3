package dev.remedy.simulation;

import dev.remedy.simulation.TimelineEntry.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What happened during a simulation, in order: scenario steps, readiness changes, policy decisions and fence
 * events, each with its time from the start. Immutable.
 *
 * @param scenario the scenario's name
 * @param entries  the entries, in the order they happened
 */
public record Timeline(String scenario, List<TimelineEntry> entries) {

    /** Copies the entries. */
    public Timeline {
        entries = List.copyOf(entries);
    }

    /** The entries of {@code node}. */
    public List<TimelineEntry> of(String node) {
        return entries.stream().filter(e -> e.node().equals(node)).toList();
    }

    /** The entries of {@code kind}, of every node. */
    public List<TimelineEntry> of(Kind kind) {
        return entries.stream().filter(e -> e.kind() == kind).toList();
    }

    /** The entries of {@code node} and {@code kind}. */
    public List<TimelineEntry> of(String node, Kind kind) {
        return entries.stream().filter(e -> e.node().equals(node) && e.kind() == kind).toList();
    }

    /** The kinds of the entries of {@code node}, in order. */
    public List<Kind> kinds(String node) {
        return of(node).stream().map(TimelineEntry::kind).toList();
    }

    /** When {@code node} first had an entry of {@code kind}, if it had one. */
    public Optional<Duration> firstAt(String node, Kind kind) {
        return of(node).stream().filter(e -> e.kind() == kind).map(TimelineEntry::at).findFirst();
    }

    /** The confirmed fences of {@code node} ({@link Kind#FENCED}). */
    public List<TimelineEntry> fencesOf(String node) {
        return of(node, Kind.FENCED);
    }

    /** The nodes that were fenced at least once, in the order of their first fence. */
    public List<String> fencedNodes() {
        return entries.stream().filter(e -> e.kind() == Kind.FENCED).map(TimelineEntry::node).distinct().toList();
    }

    /** One line per entry, as {@code remedy simulate} prints them. */
    public String format() {
        return entries.stream().map(TimelineEntry::toString).collect(Collectors.joining("\n"));
    }

    @Override
    public String toString() {
        return "Timeline[" + scenario + "]\n" + format();
    }
}
