package dev.remedy.simulation;

import dev.remedy.config.Labels;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which nodes a scenario event concerns, written as text: {@code all}; a name ({@code node-3}); a range of names
 * that share a prefix and end in a number ({@code node-3..node-5}); a label ({@code rack=r1}); or several of these
 * separated by commas ({@code node-1,rack=r1}). A label's key and value follow Kubernetes' rules
 * ({@link Labels}). Immutable.
 */
public final class NodeSelection {

    private static final Pattern NUMBERED = Pattern.compile("(.*?)(\\d+)");

    private final String spec;
    private final List<Item> items;

    private NodeSelection(String spec, List<Item> items) {
        this.spec = spec;
        this.items = List.copyOf(items);
    }

    /**
     * Parses {@code spec}.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static NodeSelection of(String spec) {
        Objects.requireNonNull(spec, "spec");
        String trimmed = spec.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("a node selection must not be empty; give 'all', a name, a range"
                    + " 'node-1..node-3' or a label 'rack=r1'");
        }
        List<Item> items = new ArrayList<>();
        for (String part : trimmed.split(",")) {
            items.add(item(part.strip(), trimmed));
        }
        return new NodeSelection(trimmed, items);
    }

    /** Every node. */
    public static NodeSelection all() {
        return of("all");
    }

    /** The nodes named. */
    public static NodeSelection names(String... names) {
        return of(String.join(",", names));
    }

    /** The nodes whose label {@code key} has {@code value}. */
    public static NodeSelection label(String key, String value) {
        return of(key + "=" + value);
    }

    /** The nodes of rack {@code value} (label {@code rack}). */
    public static NodeSelection rack(String value) {
        return label("rack", value);
    }

    /** The text this selection was written as. */
    public String spec() {
        return spec;
    }

    /**
     * The selected nodes among {@code nodes} (name to labels, in order), in that order.
     *
     * @throws IllegalArgumentException if a name or range names a node that does not exist, or nothing is selected
     */
    public List<String> resolve(Map<String, Map<String, String>> nodes) {
        Set<String> selected = new LinkedHashSet<>();
        for (Item item : items) {
            List<String> matched = item.select(nodes);
            if (matched.isEmpty()) {
                throw new IllegalArgumentException("'" + item.text() + "' of node selection '" + spec + "' "
                        + (item instanceof Label ? "matches no node's labels"
                        : "names a node that does not exist; the nodes are " + range(nodes)));
            }
            selected.addAll(matched);
        }
        return nodes.keySet().stream().filter(selected::contains).toList();
    }

    /**
     * The names that a name or a range stands for: {@code node-1..node-3} is node-1, node-2, node-3.
     *
     * @throws IllegalArgumentException if {@code part} is neither
     */
    static List<String> expandNames(String part) {
        Item item = item(part.strip(), part);
        if (item instanceof Range r) {
            return r.names();
        }
        if (item instanceof Name n) {
            return List.of(n.text());
        }
        throw new IllegalArgumentException("'" + part + "' is not a name or a range of names; give node-0 or"
                + " node-0..node-4");
    }

    private static String range(Map<String, Map<String, String>> nodes) {
        List<String> names = List.copyOf(nodes.keySet());
        return names.isEmpty() ? "none" : names.size() <= 3 ? String.join(", ", names)
                : names.get(0) + " .. " + names.get(names.size() - 1);
    }

    private static Item item(String part, String spec) {
        if (part.isEmpty()) {
            throw new IllegalArgumentException("node selection '" + spec + "' has an empty item between commas");
        }
        if (part.equals("all")) {
            return new All();
        }
        int equals = part.indexOf('=');
        if (equals >= 0) {
            String key = part.substring(0, equals).strip();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("'" + part + "' of node selection '" + spec
                        + "' has no label key; write KEY=VALUE, as in rack=r1");
            }
            String value = part.substring(equals + 1).strip();
            Optional<String> problem = Labels.keyProblem(key).or(() -> Labels.valueProblem(value));
            if (problem.isPresent()) {
                throw new IllegalArgumentException("'" + part + "' of node selection '" + spec + "' is not a label "
                        + "KEY=VALUE: " + problem.get());
            }
            return new Label(part, key, value);
        }
        int dots = part.indexOf("..");
        if (dots >= 0) {
            return range(part, part.substring(0, dots).strip(), part.substring(dots + 2).strip(), spec);
        }
        return new Name(part);
    }

    private static Item range(String part, String first, String last, String spec) {
        Matcher a = NUMBERED.matcher(first);
        Matcher b = NUMBERED.matcher(last);
        if (!a.matches() || !b.matches() || !a.group(1).equals(b.group(1))) {
            throw new IllegalArgumentException("range '" + part + "' of node selection '" + spec + "' must join two"
                    + " names with the same prefix that end in a number, as in node-3..node-5");
        }
        // Checked before a name is made: a range can name more nodes than memory holds.
        BigInteger from = new BigInteger(a.group(2));
        BigInteger to = new BigInteger(b.group(2));
        if (from.compareTo(to) > 0) {
            throw new IllegalArgumentException("range '" + part + "' of node selection '" + spec
                    + "' runs backwards; write the lower number first");
        }
        BigInteger count = to.subtract(from).add(BigInteger.ONE);
        if (count.compareTo(BigInteger.valueOf(Scenario.MAX_NODES)) > 0) {
            throw new IllegalArgumentException("range '" + part + "' of node selection '" + spec + "' names " + count
                    + " nodes, more than the " + Scenario.MAX_NODES + " a scenario may have; give a shorter range");
        }
        List<String> names = new ArrayList<>();
        for (BigInteger i = from; i.compareTo(to) <= 0; i = i.add(BigInteger.ONE)) {
            names.add(a.group(1) + i);
        }
        return new Range(part, names);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NodeSelection s && s.spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    @Override
    public String toString() {
        return spec;
    }

    /** One comma-separated item. */
    private sealed interface Item {
        String text();

        List<String> select(Map<String, Map<String, String>> nodes);
    }

    private record All() implements Item {
        @Override
        public String text() {
            return "all";
        }

        @Override
        public List<String> select(Map<String, Map<String, String>> nodes) {
            return List.copyOf(nodes.keySet());
        }
    }

    private record Name(String text) implements Item {
        @Override
        public List<String> select(Map<String, Map<String, String>> nodes) {
            return nodes.containsKey(text) ? List.of(text) : List.of();
        }
    }

    private record Range(String text, List<String> names) implements Item {
        @Override
        public List<String> select(Map<String, Map<String, String>> nodes) {
            for (String name : names) {
                if (!nodes.containsKey(name)) {
                    return List.of();
                }
            }
            return names;
        }
    }

    private record Label(String text, String key, String value) implements Item {
        @Override
        public List<String> select(Map<String, Map<String, String>> nodes) {
            return nodes.entrySet().stream().filter(e -> value.equals(e.getValue().get(key))).map(Map.Entry::getKey)
                    .toList();
        }
    }
}
