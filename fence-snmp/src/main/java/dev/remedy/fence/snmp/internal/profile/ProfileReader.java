package dev.remedy.fence.snmp.internal.profile;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.index;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.profiles.ProfileEntry;
import dev.remedy.config.profiles.ProfileFormat;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads SNMP device profiles from YAML: a document with a {@code profiles} list, each entry a table
 * ({@link DeviceProfile}) or a choice between tables ({@link ProfileChoice}, {@code choose: [a, b]}). Every problem
 * of a file is reported at once, each with the file and its path ({@code profiles[0].status.off}); nothing half-read
 * is returned. A key given twice is an error. Thread-safe.
 */
public final class ProfileReader implements ProfileFormat<Profile> {

    private static final List<String> FIELDS = List.of("name", "description", "kind", "plug", "index", "names",
            "status", "on", "off", "reboot", "isolationPersists", "choose");
    private static final List<String> CHOICE_FIELDS = List.of("name", "description", "kind", "choose");

    /**
     * Reads a parsed document; a {@code choose} entry may name a profile of {@code known} (the built-in ones) as well
     * as one of the same document.
     *
     * @throws ProfileException listing every problem
     */
    @Override
    public List<Profile> read(ConfigNode root, String source, Map<String, Profile> known) {
        ConfigNode list = profiles(root, source, "apc-rpdu2");
        ConfigProblems problems = new ConfigProblems(source);
        Map<String, Profile> read = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        List<Integer> choices = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            ConfigNode node = list.get(i);
            if (node.isObject() && node.has("choose")) {
                choices.add(i);
                continue;
            }
            int at = i;
            new Entry(node, index("profiles", i), problems).table()
                    .ifPresent(profile -> add(profile, at, read, names, problems));
        }
        Map<String, Profile> visible = new LinkedHashMap<>(known);
        visible.putAll(read);
        for (int i : choices) {
            new Entry(list.get(i), index("profiles", i), problems).choice(visible)
                    .ifPresent(profile -> add(profile, i, read, names, problems));
        }
        if (!problems.isEmpty()) {
            throw new ProfileException(problems.list());
        }
        return List.copyOf(read.values());
    }

    @Override
    public ProfileException refused(List<ConfigProblem> problems) {
        return new ProfileException(problems);
    }

    private static void add(Profile profile, int at, Map<String, Profile> read, Set<String> names,
            ConfigProblems problems) {
        if (!names.add(profile.name())) {
            problems.add(child(index("profiles", at), "name"), "the name '" + profile.name()
                    + "' is used twice in this file");
        }
        read.put(profile.name(), profile);
    }

    /** One entry of the list, read field by field; its problems go to its own list, then to the file's. */
    private static final class Entry extends ProfileEntry {

        Entry(ConfigNode node, String where, ConfigProblems file) {
            super(node, where, file);
        }

        Optional<DeviceProfile> table() {
            return report(readTable());
        }

        Optional<ProfileChoice> choice(Map<String, Profile> visible) {
            return report(readChoice(visible));
        }

        private Optional<DeviceProfile> readTable() {
            if (!node.isObject()) {
                problem(where, "is not a mapping", "give name, kind, plug, status, on and off");
                return Optional.empty();
            }
            problems.checkKeys(node, where, FIELDS);
            String name = name();
            FencingKind kind = kind();
            Optional<Pattern> plug = regex("plug");
            String index = text(node, where, "index", false).orElse("{plug}");
            plug.ifPresent(form -> checkIndex(form, index));
            List<Oid> names = columns();
            Optional<StateRead> status = status();
            Optional<Write> on = write(node.get("on"), child(where, "on"), true);
            Optional<Write> off = write(node.get("off"), child(where, "off"), true);
            Optional<DeviceReboot> reboot = reboot(kind);
            boolean persists = isolationPersists(kind);
            if (!problems.isEmpty() || kind == null || plug.isEmpty() || status.isEmpty() || on.isEmpty()
                    || off.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new DeviceProfile(name, description(name), kind, plug.get(), index, names,
                    status.get(), on.get(), off.get(), reboot, persists));
        }

        private Optional<ProfileChoice> readChoice(Map<String, Profile> visible) {
            problems.checkKeys(node, where, CHOICE_FIELDS);
            String name = name();
            FencingKind kind = kind();
            ConfigNode choose = node.get("choose");
            String path = child(where, "choose");
            List<DeviceProfile> candidates = new ArrayList<>();
            if (!choose.isArray() || choose.size() < 2) {
                problem(path, "is not a list of two or more profile names", "name the table profiles to try, in order");
                return Optional.empty();
            }
            Set<String> seen = new LinkedHashSet<>();
            for (int i = 0; i < choose.size(); i++) {
                String at = index(path, i);
                Optional<String> candidate = problems.scalar(choose.get(i), at);
                if (candidate.isEmpty()) {
                    continue;
                }
                Profile found = visible.get(candidate.get());
                if (!seen.add(candidate.get())) {
                    problem(at, "'" + candidate.get() + "' is named twice", "name each candidate once");
                } else if (found == null) {
                    problem(at, "'" + candidate.get() + "' is not a known profile", "define it in this file, or "
                            + "name one of " + visible.keySet().stream().sorted().toList());
                } else if (!(found instanceof DeviceProfile table)) {
                    problem(at, "'" + candidate.get() + "' is itself a choice", "name table profiles only");
                } else if (kind != null && table.kind() != kind) {
                    problem(at, "'" + candidate.get() + "' is " + describe(table.kind()) + ", not " + describe(kind),
                            "choose between profiles of one kind");
                } else {
                    candidates.add(table);
                }
            }
            if (!problems.isEmpty() || kind == null) {
                return Optional.empty();
            }
            return Optional.of(new ProfileChoice(name, description(name), kind, candidates));
        }

        private String description(String name) {
            return text(node, where, "description", false).orElse(name);
        }

        private FencingKind kind() {
            Optional<String> kind = text(node, where, "kind", true);
            if (kind.isEmpty()) {
                return null;
            }
            String given = kind.get().toUpperCase(Locale.ROOT);
            if (!given.equals("POWER") && !given.equals("FABRIC")) {
                problem(child(where, "kind"), "'" + kind.get() + "' is not a kind of SNMP profile", "give power (PDU "
                        + "outlets) or fabric (switch ports)");
                return null;
            }
            return FencingKind.valueOf(given);
        }

        private void checkIndex(Pattern form, String index) {
            String path = child(where, "index");
            for (String group : DeviceProfile.groups(index)) {
                if (!form.pattern().contains("(?<" + group + ">")) {
                    problem(path, "names the group '" + group + "', which plug does not have", "name a group of plug, "
                            + "as (?<" + group + ">[0-9]+), or use {plug}");
                }
            }
            String rest = DeviceProfile.GROUP.matcher(index).replaceAll("0");
            if (!Oid.isIndex(rest)) {
                problem(path, "'" + index + "' is not an OID index", "write dotted numbers and {plug} or {group} or "
                        + "{group|default}, each with an offset if the device counts from 0, as {unit|0}.{outlet} or "
                        + "{plug-1}");
            }
        }

        private List<Oid> columns() {
            ConfigNode value = node.get("names");
            String path = child(where, "names");
            List<Oid> columns = new ArrayList<>();
            if (value == null) {
                return columns;
            }
            List<ConfigNode> items = value.isArray() ? value.elements() : List.of(value);
            for (int i = 0; i < items.size(); i++) {
                String at = value.isArray() ? index(path, i) : path;
                problems.scalar(items.get(i), at).ifPresent(text -> oid(text, at).ifPresent(oid -> {
                    if (oid.perPlug()) {
                        problem(at, "holds {index}", "give the column (the OID without the index): every plug's name "
                                + "is read under it");
                    } else {
                        columns.add(oid);
                    }
                }));
            }
            return columns;
        }

        private Optional<StateRead> status() {
            ConfigNode status = node.get("status");
            String path = child(where, "status");
            if (status == null || !status.isObject()) {
                problem(path, status == null ? "is missing" : "is not a mapping", "give {oid, on, off}: the OID with "
                        + "{index} and the values that mean on and off");
                return Optional.empty();
            }
            problems.checkKeys(status, path, List.of("oid", "on", "off", "pending"));
            Optional<Oid> oid = plugOid(status, path);
            Set<Integer> on = values(status, path, "on", true);
            Set<Integer> off = values(status, path, "off", true);
            Set<Integer> pending = values(status, path, "pending", false);
            Set<Integer> shared = new HashSet<>(on);
            shared.retainAll(off);
            Set<Integer> pendingShared = new HashSet<>(pending);
            pendingShared.removeIf(v -> !on.contains(v) && !off.contains(v));
            if (!shared.isEmpty() || !pendingShared.isEmpty()) {
                problem(path, "gives a value two meanings", "each value means one of on, off or pending");
                return Optional.empty();
            }
            if (oid.isEmpty() || on.isEmpty() || off.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new StateRead(oid.get(), on, off, pending));
        }

        private Optional<Write> write(ConfigNode write, String path, boolean required) {
            if (write == null || !write.isObject()) {
                if (write != null || required) {
                    problem(path, write == null ? "is missing" : "is not a mapping", "give {oid, value}: the OID with "
                            + "{index} and the integer to SET");
                }
                return Optional.empty();
            }
            problems.checkKeys(write, path, path.endsWith("reboot") ? List.of("oid", "value", "delay")
                    : List.of("oid", "value"));
            Optional<Oid> oid = plugOid(write, path);
            ConfigNode value = write.get("value");
            Optional<Integer> number = value == null ? Optional.empty()
                    : problems.wholeNumber(value, child(path, "value"), "the integer the device expects");
            if (value == null) {
                problem(child(path, "value"), "is missing", "give the integer to SET");
            }
            return oid.isPresent() && number.isPresent() ? Optional.of(new Write(oid.get(), number.get()))
                    : Optional.empty();
        }

        private Optional<DeviceReboot> reboot(FencingKind kind) {
            ConfigNode reboot = node.get("reboot");
            String path = child(where, "reboot");
            if (reboot == null) {
                return Optional.empty();
            }
            if (kind == FencingKind.FABRIC) {
                problem(path, "is given for a fabric profile", "a port is not rebooted: remove reboot");
                return Optional.empty();
            }
            Optional<Write> write = write(reboot, path, true);
            Optional<Oid> delay = Optional.empty();
            if (reboot.isObject()) {
                ConfigNode given = reboot.get("delay");
                String at = child(path, "delay");
                if (given == null) {
                    problem(at, "is missing", "give the OID (with {index}) of the seconds the outlet stays off");
                } else {
                    delay = problems.scalar(given, at).flatMap(text -> oid(text, at));
                    delay.filter(oid -> !oid.perPlug()).ifPresent(oid -> problem(at, "has no {index}", "give the "
                            + "outlet's own OID of its off time"));
                }
            }
            return write.isPresent() && delay.isPresent() && delay.get().perPlug()
                    ? Optional.of(new DeviceReboot(write.get(), delay.get())) : Optional.empty();
        }

        private boolean isolationPersists(FencingKind kind) {
            ConfigNode value = node.get("isolationPersists");
            String path = child(where, "isolationPersists");
            if (value == null) {
                if (kind == FencingKind.FABRIC) {
                    problem(path, "is missing", "say true if a port set down by SNMP stays down after the switch "
                            + "restarts, false if it comes back with its saved configuration (IF-MIB alone: false)");
                }
                return false;
            }
            Optional<Boolean> flag = problems.flag(value, path);
            if (kind != null && kind != FencingKind.FABRIC && flag.isPresent()) {
                problem(path, "is given for a power profile", "only fabric profiles isolate: remove isolationPersists");
                return false;
            }
            return flag.orElse(false);
        }

        private Optional<Oid> plugOid(ConfigNode parent, String path) {
            Optional<Oid> oid = text(parent, path, "oid", true).flatMap(text -> oid(text, child(path, "oid")));
            oid.filter(o -> !o.perPlug()).ifPresent(o -> problem(child(path, "oid"), "has no {index}", "put {index} "
                    + "where the plug's index goes, e.g. 1.3.6.1.2.1.2.2.1.7.{index}"));
            return oid.filter(Oid::perPlug);
        }

        private Optional<Oid> oid(String text, String path) {
            Optional<Oid> oid = Oid.parse(text.strip());
            if (oid.isEmpty()) {
                problem(path, "'" + text + "' is not an OID", "write dotted numbers, with {index} at most once where "
                        + "the plug's index goes");
            }
            return oid;
        }

        private Set<Integer> values(ConfigNode parent, String path, String field, boolean required) {
            ConfigNode value = parent.get(field);
            String at = child(path, field);
            Set<Integer> values = new LinkedHashSet<>();
            if (value == null) {
                if (required) {
                    problem(at, "is missing", "give the integer, or a list of them, that the device answers");
                }
                return values;
            }
            List<ConfigNode> items = value.isArray() ? value.elements() : List.of(value);
            for (int i = 0; i < items.size(); i++) {
                problems.wholeNumber(items.get(i), value.isArray() ? index(at, i) : at, "as the device answers")
                        .ifPresent(values::add);
            }
            if (required && values.isEmpty() && problems.isEmpty()) {
                problem(at, "is empty", "give at least one integer");
            }
            return values;
        }

        private Optional<Pattern> regex(String field) {
            Optional<String> text = text(node, where, field, true);
            if (text.isEmpty()) {
                return Optional.empty();
            }
            try {
                return Optional.of(Pattern.compile(text.get()));
            } catch (PatternSyntaxException e) {
                problem(child(where, field), "is not a valid regular expression: " + e.getDescription(), "fix the "
                        + "pattern (Java regex syntax; quote it in single quotes in YAML)");
                return Optional.empty();
            }
        }

        private static String describe(FencingKind kind) {
            return kind.name().toLowerCase(Locale.ROOT);
        }
    }
}
