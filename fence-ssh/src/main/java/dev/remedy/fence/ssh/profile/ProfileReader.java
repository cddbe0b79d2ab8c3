package dev.remedy.fence.ssh.profile;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.DidYouMean;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads device profiles from YAML: a document with a {@code profiles} list, each entry one {@link DeviceProfile}.
 * Every problem of a file is reported at once, with the profile and the field it is in; nothing half-read is
 * returned. Thread-safe.
 */
public final class ProfileReader {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    private static final Set<String> FIELDS = Set.of("name", "description", "kind", "prompt", "plug", "setup", "pager",
            "confirm", "errors", "status", "on", "off", "list", "reboot", "exit");

    /**
     * Parses {@code yaml}.
     *
     * @param source names the text in messages (a file path or a resource)
     * @throws ProfileException listing every problem
     */
    public List<DeviceProfile> read(String yaml, String source) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JacksonException e) {
            throw new ProfileException(source, List.of("not valid YAML: " + e.getOriginalMessage()
                    + Optional.ofNullable(e.getLocation()).map(l -> " (line " + l.getLineNr() + ")").orElse("")));
        }
        if (root == null || !root.path("profiles").isArray() || root.path("profiles").isEmpty()) {
            throw new ProfileException(source, List.of("no 'profiles' list: write 'profiles:' followed by one entry"
                    + " per device (see the built-in apc profile)"));
        }
        List<String> problems = new ArrayList<>();
        List<DeviceProfile> profiles = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        int index = 0;
        for (JsonNode node : root.path("profiles")) {
            Entry entry = new Entry(node, "profiles[" + index++ + "]" + Optional.ofNullable(node.get("name"))
                    .map(n -> " (" + n.asText() + ")").orElse(""), problems);
            entry.profile().ifPresent(profile -> {
                if (!names.add(profile.name())) {
                    problems.add(entry.where + ": the name '" + profile.name() + "' is used twice in this file");
                }
                profiles.add(profile);
            });
        }
        if (!problems.isEmpty()) {
            throw new ProfileException(source, problems);
        }
        return List.copyOf(profiles);
    }

    /** One entry of the list, read field by field; problems go to the shared list. */
    private static final class Entry {

        private final JsonNode node;
        private final String where;
        private final List<String> problems;
        private final int before;

        Entry(JsonNode node, String where, List<String> problems) {
            this.node = node;
            this.where = where;
            this.problems = problems;
            this.before = problems.size();
        }

        Optional<DeviceProfile> profile() {
            if (!node.isObject()) {
                problem("", "is not a mapping", "give name, kind, prompt, status and the commands");
                return Optional.empty();
            }
            for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
                String field = it.next();
                if (!FIELDS.contains(field)) {
                    problem(field, "is not a profile field", DidYouMean.nearest(field, FIELDS)
                            .map(near -> "did you mean '" + near + "'?").orElse("the fields are " + FIELDS));
                }
            }
            String name = text(node, "name", true).orElse("");
            if (!name.isEmpty() && !NAME.matcher(name).matches()) {
                problem("name", "'" + name + "' is not a profile name", "use lower-case letters, digits, '.', '_', '-'");
            }
            FencingKind kind = kind();
            Optional<Pattern> prompt = regex(node, "prompt", true);
            Optional<Pattern> plug = regex(node, "plug", false);
            boolean plugs = kind != FencingKind.SOFT;
            if (plugs && plug.isEmpty() && node.has("kind")) {
                problem("plug", "is missing", "give the form of a plug in full, e.g. '[0-9]{1,3}' for outlet numbers");
            }
            if (!plugs && plug.isPresent()) {
                problem("plug", "is given for a soft-fencing profile", "a host fences itself: remove plug");
            }
            Optional<StateCheck> status = state(node.get("status"), "status", plugs);
            List<String> on = commands(node, "on");
            List<String> off = commands(node, "off");
            Optional<SoftReboot> reboot = reboot();
            if (plugs) {
                requireCommands("on", on);
                requireCommands("off", off);
                if (reboot.isPresent()) {
                    problem("reboot", "is only for soft-fencing profiles", "REBOOT of a " + kind.name()
                            .toLowerCase(Locale.ROOT) + " device is OFF then ON, run from 'off' and 'on'");
                }
            } else {
                if (!on.isEmpty() || !off.isEmpty()) {
                    problem(on.isEmpty() ? "off" : "on", "is given for a soft-fencing profile",
                            "a host cannot confirm its own power state: describe 'reboot' instead");
                }
                if (reboot.isEmpty() && !node.has("reboot")) {
                    problem("reboot", "is missing", "give the commands that make the host act on itself");
                }
            }
            Optional<Prompt> pager = answer(node.get("pager"), "pager", false);
            List<Prompt> confirmations = new ArrayList<>();
            JsonNode confirm = node.get("confirm");
            if (confirm != null && !confirm.isArray()) {
                problem("confirm", "is not a list", "give a list of {pattern, send}");
            } else if (confirm != null) {
                int i = 0;
                for (JsonNode item : confirm) {
                    answer(item, "confirm[" + i++ + "]", true).ifPresent(confirmations::add);
                }
            }
            List<Pattern> errors = new ArrayList<>();
            for (String text : strings(node, "errors")) {
                compile("errors", text).ifPresent(errors::add);
            }
            Optional<ListCheck> list = list();
            String exit = text(node, "exit", false).orElse("exit");
            if (problems.size() > before || prompt.isEmpty() || status.isEmpty() || kind == null) {
                return Optional.empty();
            }
            return Optional.of(new DeviceProfile(name, text(node, "description", false).orElse(name), kind,
                    prompt.get(), plug, strings(node, "setup"), pager, confirmations, errors, status.get(), on, off,
                    list, reboot, exit));
        }

        private FencingKind kind() {
            Optional<String> kind = text(node, "kind", true);
            if (kind.isEmpty()) {
                return null;
            }
            try {
                return FencingKind.valueOf(kind.get().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                problem("kind", "'" + kind.get() + "' is not a kind", "give power, fabric or soft");
                return null;
            }
        }

        private void requireCommands(String field, List<String> commands) {
            if (commands.isEmpty()) {
                problem(field, "is missing", "give the commands, with {plug} where the plug goes");
            } else if (commands.stream().noneMatch(Placeholders::present)) {
                problem(field, "never names the plug", "put {plug} in the command that acts on it");
            }
        }

        private Optional<StateCheck> state(JsonNode check, String field, boolean plugs) {
            if (check == null || !check.isObject()) {
                problem(field, check == null ? "is missing" : "is not a mapping",
                        "give {command, on, off}: the command that reads the state and the patterns of its reply");
                return Optional.empty();
            }
            Optional<String> command = text(check, "command", true, field + ".");
            Optional<String> on = text(check, "on", true, field + ".");
            Optional<String> off = text(check, "off", plugs, field + ".");
            on.ifPresent(text -> compile(field + ".on", Placeholders.regex(text, "0")));
            off.ifPresent(text -> compile(field + ".off", Placeholders.regex(text, "0")));
            if (plugs && command.isPresent() && !Placeholders.present(command.get())) {
                problem(field + ".command", "never names the plug", "put {plug} where the plug goes");
            }
            if (command.isEmpty() || on.isEmpty() || (plugs && off.isEmpty())) {
                return Optional.empty();
            }
            return Optional.of(new StateCheck(command.get(), on.get(), off));
        }

        private Optional<SoftReboot> reboot() {
            JsonNode reboot = node.get("reboot");
            if (reboot == null) {
                return Optional.empty();
            }
            if (!reboot.isObject()) {
                problem("reboot", "is not a mapping", "give {commands, disconnects, identity, confirm}");
                return Optional.empty();
            }
            List<String> commands = commands(reboot, "commands");
            if (commands.isEmpty()) {
                problem("reboot.commands", "is missing", "give the commands that make the host act on itself");
            }
            boolean disconnects = reboot.path("disconnects").asBoolean(false);
            Optional<String> identity = text(reboot, "identity", false, "reboot.");
            if (disconnects && identity.isEmpty()) {
                problem("reboot.identity", "is missing", "a reboot is confirmed only by a new boot id: give a command"
                        + " that prints one, e.g. cat /proc/sys/kernel/random/boot_id");
            }
            Optional<StateCheck> confirm = reboot.has("confirm") ? state(reboot.get("confirm"), "reboot.confirm", false)
                    : Optional.empty();
            if (!disconnects && !reboot.has("confirm")) {
                problem("reboot.confirm", "is missing", "give the state to read afterwards, e.g. the node agent active");
            }
            return commands.isEmpty() ? Optional.empty()
                    : Optional.of(new SoftReboot(commands, disconnects, identity, confirm));
        }

        private Optional<ListCheck> list() {
            JsonNode list = node.get("list");
            if (list == null) {
                return Optional.empty();
            }
            Optional<String> command = text(list, "command", true, "list.");
            Optional<Pattern> item = regex(list, "item", true, "list.");
            Optional<Pattern> on = regex(list, "on", true, "list.");
            item.filter(p -> !p.pattern().contains("(?<plug>") || !p.pattern().contains("(?<state>"))
                    .ifPresent(p -> problem("list.item", "lacks a named group", "name the groups (?<plug>…) and "
                            + "(?<state>…), and (?<alias>…) if the device shows names"));
            if (command.isEmpty() || item.isEmpty() || on.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new ListCheck(command.get(), item.get(), on.get()));
        }

        private Optional<Prompt> answer(JsonNode answer, String field, boolean line) {
            if (answer == null) {
                return Optional.empty();
            }
            Optional<Pattern> pattern = regex(answer, "pattern", true, field + ".");
            Optional<String> send = text(answer, "send", true, field + ".");
            return pattern.isPresent() && send.isPresent() ? Optional.of(new Prompt(pattern.get(), send.get(), line))
                    : Optional.empty();
        }

        private List<String> commands(JsonNode parent, String field) {
            return strings(parent, field);
        }

        private List<String> strings(JsonNode parent, String field) {
            JsonNode value = parent.get(field);
            if (value == null || value.isNull()) {
                return List.of();
            }
            if (value.isTextual()) {
                return List.of(value.asText());
            }
            if (!value.isArray()) {
                problem(field, "is not a list of texts", "write one text or a list of texts");
                return List.of();
            }
            List<String> texts = new ArrayList<>();
            for (JsonNode item : value) {
                if (!item.isValueNode()) {
                    problem(field, "holds something that is not a text", "write each entry as a text");
                } else {
                    texts.add(item.asText());
                }
            }
            return texts;
        }

        private Optional<String> text(JsonNode parent, String field, boolean required) {
            return text(parent, field, required, "");
        }

        private Optional<String> text(JsonNode parent, String field, boolean required, String prefix) {
            JsonNode value = parent.get(field);
            if (value == null || value.isNull() || (value.isValueNode() && value.asText().isEmpty())) {
                if (required) {
                    problem(prefix + field, "is missing", "see the built-in profiles for an example");
                }
                return Optional.empty();
            }
            if (!value.isValueNode()) {
                problem(prefix + field, "is not a text", "write it as a (quoted) text");
                return Optional.empty();
            }
            return Optional.of(value.asText());
        }

        private Optional<Pattern> regex(JsonNode parent, String field, boolean required) {
            return regex(parent, field, required, "");
        }

        private Optional<Pattern> regex(JsonNode parent, String field, boolean required, String prefix) {
            return text(parent, field, required, prefix).flatMap(text -> compile(prefix + field, text));
        }

        private Optional<Pattern> compile(String field, String regex) {
            try {
                return Optional.of(Pattern.compile(regex, Pattern.MULTILINE));
            } catch (PatternSyntaxException e) {
                problem(field, "is not a valid regular expression: " + e.getDescription() + " near index "
                        + e.getIndex(), "fix the pattern (Java regex syntax; quote it in single quotes in YAML)");
                return Optional.empty();
            }
        }

        private void problem(String field, String what, String hint) {
            problems.add(where + (field.isEmpty() ? "" : ", field '" + field + "'") + ": " + what + "; " + hint);
        }
    }
}
