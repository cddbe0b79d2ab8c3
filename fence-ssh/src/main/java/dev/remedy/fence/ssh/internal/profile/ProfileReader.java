package dev.remedy.fence.ssh.internal.profile;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.index;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.profiles.ProfileEntry;
import dev.remedy.config.profiles.ProfileFormat;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads device profiles from YAML: a document with a {@code profiles} list, each entry one {@link DeviceProfile}.
 * Every problem of a file is reported at once, each with the file and its path ({@code profiles[0].status.off});
 * nothing half-read is returned. Strict, as every remedy configuration: a key given twice is an error. Thread-safe.
 */
public final class ProfileReader implements ProfileFormat<DeviceProfile> {

    private static final List<String> FIELDS = List.of("name", "description", "kind", "prompt", "plug", "setup",
            "pager", "confirm", "errors", "status", "on", "off", "list", "reboot", "exit",
            "isolationPersists", "enable");

    /**
     * Parses {@code yaml}.
     *
     * @param source names the text in messages (a file path or a resource)
     * @throws ProfileException listing every problem
     */
    public List<DeviceProfile> read(String yaml, String source) {
        return read(yaml, source, Map.of());
    }

    /**
     * Reads a parsed document; an SSH profile names no other, so {@code known} is not used.
     *
     * @param source names the document in messages (a file path or a resource)
     * @throws ProfileException listing every problem
     */
    @Override
    public List<DeviceProfile> read(ConfigNode root, String source, Map<String, DeviceProfile> known) {
        ConfigNode list = profiles(root, source, "apc");
        ConfigProblems problems = new ConfigProblems(source);
        List<DeviceProfile> profiles = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String where = index("profiles", i);
            new Entry(list.get(i), where, problems).profile().ifPresent(profile -> {
                if (!names.add(profile.name())) {
                    problems.add(child(where, "name"), "the name '" + profile.name() + "' is used twice in this file");
                }
                profiles.add(profile);
            });
        }
        if (!problems.isEmpty()) {
            throw new ProfileException(problems.list());
        }
        return List.copyOf(profiles);
    }

    @Override
    public ProfileException refused(List<ConfigProblem> problems) {
        return new ProfileException(problems);
    }

    /** One entry of the list, read field by field; its problems go to its own list, then to the file's. */
    private static final class Entry extends ProfileEntry {

        Entry(ConfigNode node, String where, ConfigProblems file) {
            super(node, where, file);
        }

        /** The profile, or empty if it has problems. */
        Optional<DeviceProfile> profile() {
            return report(read());
        }

        private Optional<DeviceProfile> read() {
            if (!node.isObject()) {
                problem(where, "is not a mapping", "give name, kind, prompt, status and the commands");
                return Optional.empty();
            }
            problems.checkKeys(node, where, FIELDS);
            String name = name();
            FencingKind kind = kind();
            Optional<Pattern> prompt = regex(node, where, "prompt", true);
            Optional<Pattern> plug = regex(node, where, "plug", false);
            boolean plugs = kind != FencingKind.SOFT;
            boolean plugRefused = problems.list().stream().anyMatch(p -> p.path().equals(child(where, "plug")));
            if (plugs && plug.isEmpty() && !plugRefused && node.has("kind")) {
                problem(child(where, "plug"), "is missing", "give the form of a plug in full, e.g. '[0-9]{1,3}' for "
                        + "outlet numbers");
            }
            if (!plugs && plug.isPresent()) {
                problem(child(where, "plug"), "is given for a soft-fencing profile", "a host fences itself: remove "
                        + "plug");
            }
            Optional<StateCheck> status = state(node.get("status"), child(where, "status"), plugs);
            List<String> on = strings(node, where, "on");
            List<String> off = strings(node, where, "off");
            Optional<SoftReboot> reboot = reboot();
            if (plugs) {
                requireCommands("on", on);
                requireCommands("off", off);
                if (reboot.isPresent()) {
                    problem(child(where, "reboot"), "is only for soft-fencing profiles", "REBOOT of a "
                            + kind.name().toLowerCase(Locale.ROOT) + " device is OFF then ON, run from 'off' and 'on'");
                }
            } else {
                if (!on.isEmpty() || !off.isEmpty()) {
                    problem(child(where, on.isEmpty() ? "off" : "on"), "is given for a soft-fencing profile",
                            "a host cannot confirm its own power state: describe 'reboot' instead");
                }
                if (reboot.isEmpty() && !node.has("reboot")) {
                    problem(child(where, "reboot"), "is missing", "give the commands that make the host act on "
                            + "itself");
                }
            }
            Optional<Prompt> pager = answer(node.get("pager"), child(where, "pager"), false);
            List<Prompt> confirmations = confirmations();
            List<Pattern> errors = new ArrayList<>();
            for (String text : strings(node, where, "errors")) {
                compile(child(where, "errors"), text).ifPresent(errors::add);
            }
            Optional<ListCheck> list = list();
            String exit = text(node, where, "exit", false).orElse("exit");
            boolean persists = isolationPersists(kind);
            Optional<Enable> enable = enable();
            if (!problems.isEmpty() || prompt.isEmpty() || status.isEmpty() || kind == null) {
                return Optional.empty();
            }
            return Optional.of(new DeviceProfile(name, text(node, where, "description", false).orElse(name), kind,
                    prompt.get(), plug, strings(node, where, "setup"), pager, confirmations, errors, status.get(), on,
                    off, list, reboot, exit, persists, enable));
        }

        private boolean isolationPersists(FencingKind kind) {
            ConfigNode value = node.get("isolationPersists");
            String path = child(where, "isolationPersists");
            if (value == null) {
                return false;
            }
            if (!value.isBoolean()) {
                problem(path, "'" + value.asText() + "' is not true or false", "say true if 'off' survives a restart "
                        + "of the device (persistent disable, saved configuration), false otherwise");
                return false;
            }
            if (kind != null && kind != FencingKind.FABRIC && value.booleanValue()) {
                problem(path, "is given for a " + kind.name().toLowerCase(Locale.ROOT) + " profile", "only fabric "
                        + "profiles isolate: remove isolationPersists");
                return false;
            }
            return value.booleanValue();
        }

        private Optional<Enable> enable() {
            ConfigNode enable = node.get("enable");
            String path = child(where, "enable");
            if (enable == null) {
                return Optional.empty();
            }
            if (!enable.isObject()) {
                problem(path, "is not a mapping", "give {command, passwordPrompt, prompt}: the command that enters the "
                        + "privileged prompt, the device's question for the secret, and the privileged prompt");
                return Optional.empty();
            }
            Optional<String> command = text(enable, path, "command", true);
            Optional<Pattern> password = regex(enable, path, "passwordPrompt", true);
            Optional<Pattern> privileged = regex(enable, path, "prompt", true);
            if (command.isEmpty() || password.isEmpty() || privileged.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Enable(command.get(), password.get(), privileged.get()));
        }

        private FencingKind kind() {
            Optional<String> kind = text(node, where, "kind", true);
            if (kind.isEmpty()) {
                return null;
            }
            Optional<FencingKind> known = Arrays.stream(FencingKind.values())
                    .filter(k -> k != FencingKind.SELF && k.code().equals(kind.get().toLowerCase(Locale.ROOT)))
                    .findFirst();
            if (known.isEmpty()) {
                problem(child(where, "kind"), "'" + kind.get() + "' is not a kind", "give power, fabric or soft");
                return null;
            }
            return known.get();
        }

        private void requireCommands(String field, List<String> commands) {
            if (commands.isEmpty()) {
                problem(child(where, field), "is missing", "give the commands, with {plug} where the plug goes");
            } else if (commands.stream().noneMatch(Placeholders::present)) {
                problem(child(where, field), "never names the plug", "put {plug} in the command that acts on it");
            }
        }

        private Optional<StateCheck> state(ConfigNode check, String path, boolean plugs) {
            if (check == null || !check.isObject()) {
                problem(path, check == null ? "is missing" : "is not a mapping",
                        "give {command, on, off}: the command that reads the state and the patterns of its reply");
                return Optional.empty();
            }
            Optional<String> command = text(check, path, "command", true);
            Optional<String> on = text(check, path, "on", true);
            Optional<String> off = text(check, path, "off", plugs);
            on.ifPresent(text -> compile(child(path, "on"), Placeholders.regex(text, "0")));
            off.ifPresent(text -> compile(child(path, "off"), Placeholders.regex(text, "0")));
            if (plugs && command.isPresent() && !Placeholders.present(command.get())) {
                problem(child(path, "command"), "never names the plug", "put {plug} where the plug goes");
            }
            if (command.isEmpty() || on.isEmpty() || (plugs && off.isEmpty())) {
                return Optional.empty();
            }
            return Optional.of(new StateCheck(command.get(), on.get(), off));
        }

        private Optional<SoftReboot> reboot() {
            ConfigNode reboot = node.get("reboot");
            String path = child(where, "reboot");
            if (reboot == null) {
                return Optional.empty();
            }
            if (!reboot.isObject()) {
                problem(path, "is not a mapping", "give {commands, disconnects, identity, confirm}");
                return Optional.empty();
            }
            List<String> commands = strings(reboot, path, "commands");
            if (commands.isEmpty()) {
                problem(child(path, "commands"), "is missing", "give the commands that make the host act on itself");
            }
            ConfigNode disconnectsNode = reboot.get("disconnects");
            boolean disconnects = disconnectsNode != null
                    && problems.flag(disconnectsNode, child(path, "disconnects")).orElse(false);
            Optional<String> identity = text(reboot, path, "identity", false);
            if (disconnects && identity.isEmpty()) {
                problem(child(path, "identity"), "is missing", "a reboot is confirmed only by a new boot id: give a "
                        + "command that prints one, e.g. cat /proc/sys/kernel/random/boot_id");
            }
            Optional<StateCheck> confirm = reboot.has("confirm")
                    ? state(reboot.get("confirm"), child(path, "confirm"), false) : Optional.empty();
            if (!disconnects && !reboot.has("confirm")) {
                problem(child(path, "confirm"), "is missing", "give the state to read afterwards, e.g. the node agent "
                        + "active");
            }
            return commands.isEmpty() ? Optional.empty()
                    : Optional.of(new SoftReboot(commands, disconnects, identity, confirm));
        }

        private List<Prompt> confirmations() {
            ConfigNode confirm = node.get("confirm");
            String path = child(where, "confirm");
            List<Prompt> confirmations = new ArrayList<>();
            if (confirm != null && !confirm.isArray()) {
                problem(path, "is not a list", "give a list of {pattern, send}");
            } else if (confirm != null) {
                for (int i = 0; i < confirm.size(); i++) {
                    answer(confirm.get(i), index(path, i), true).ifPresent(confirmations::add);
                }
            }
            return confirmations;
        }

        private Optional<ListCheck> list() {
            ConfigNode list = node.get("list");
            String path = child(where, "list");
            if (list == null) {
                return Optional.empty();
            }
            Optional<String> command = text(list, path, "command", true);
            Optional<Pattern> item = regex(list, path, "item", true);
            Optional<Pattern> on = regex(list, path, "on", true);
            item.filter(p -> !p.pattern().contains("(?<plug>") || !p.pattern().contains("(?<state>"))
                    .ifPresent(p -> problem(child(path, "item"), "lacks a named group", "name the groups (?<plug>…) "
                            + "and (?<state>…), and (?<alias>…) if the device shows names"));
            if (command.isEmpty() || item.isEmpty() || on.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new ListCheck(command.get(), item.get(), on.get()));
        }

        /** A pager ({@code line} false) or a confirmation, whose {@code send: ''} is a bare Enter. */
        private Optional<Prompt> answer(ConfigNode answer, String path, boolean line) {
            if (answer == null) {
                return Optional.empty();
            }
            Optional<Pattern> pattern = regex(answer, path, "pattern", true);
            ConfigNode given = answer.get("send");
            boolean bareEnter = line && given != null && given.isTextual() && given.asText().isEmpty();
            Optional<String> send = bareEnter ? Optional.of("") : text(answer, path, "send", false);
            if (send.isEmpty() && (given == null || given.isNull() || given.isTextual())) {
                problem(child(path, "send"), "is missing", line ? "give the answer, or '' for a bare Enter"
                        : "give the key that shows the next page, e.g. ' '");
            }
            return pattern.isPresent() && send.isPresent() ? Optional.of(new Prompt(pattern.get(), send.get(), line))
                    : Optional.empty();
        }

        /** One text, or a list of texts; none when not given. */
        private List<String> strings(ConfigNode parent, String parentPath, String field) {
            ConfigNode value = parent.get(field);
            String path = child(parentPath, field);
            if (value == null || value.isNull()) {
                return List.of();
            }
            if (value.isTextual()) {
                return List.of(value.asText());
            }
            if (!value.isArray()) {
                problem(path, "is not a list of texts", "write one text or a list of texts");
                return List.of();
            }
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < value.size(); i++) {
                problems.scalar(value.get(i), index(path, i)).ifPresent(texts::add);
            }
            return texts;
        }

        private Optional<Pattern> regex(ConfigNode parent, String parentPath, String field, boolean required) {
            return text(parent, parentPath, field, required).flatMap(text -> compile(child(parentPath, field), text));
        }

        private Optional<Pattern> compile(String path, String regex) {
            try {
                return Optional.of(Pattern.compile(regex, Pattern.MULTILINE));
            } catch (PatternSyntaxException e) {
                problem(path, "is not a valid regular expression: " + e.getDescription() + " near index "
                        + e.getIndex(), "fix the pattern (Java regex syntax; quote it in single quotes in YAML)");
                return Optional.empty();
            }
        }
    }
}
