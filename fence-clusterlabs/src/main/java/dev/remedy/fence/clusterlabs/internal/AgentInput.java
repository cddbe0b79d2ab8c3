package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What an agent reads on its standard input: {@code action=...}, then one {@code option=value} line per parameter
 * the configuration sets (defaults are the agent's own business), as fence-agents' {@code fencing.py} reads them.
 * A value with space at either end, or in double quotes, is written in double quotes, which fencing.py removes. A
 * boolean that is false is left out (several agents treat a present option as set, whatever its value) unless the
 * agent's default is true. A value cannot hold a line break: it would end the line and start another option
 * ({@link #problems}).
 */
public final class AgentInput {

    private static final Set<String> TRUE = Set.of("true", "yes", "on", "1");

    private AgentInput() {
    }

    /** The input for {@code action} of the agent {@code description} describes, with the values of {@code config}. */
    public static String of(String action, AgentDescription description, AgentConfig config) {
        StringBuilder input = new StringBuilder("action=").append(action).append('\n');
        for (ParameterDescriptor p : description.parameters()) {
            String option = description.options().get(p.name());
            if (option == null || !config.isSet(p.name())) {
                continue;
            }
            value(p, config).ifPresent(value -> input.append(option).append('=').append(quoted(value)).append('\n'));
        }
        return input.toString();
    }

    /** The problems of values that cannot be written on one line: a line break or a NUL character. */
    public static List<ConfigProblem> problems(AgentConfig config) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (ParameterDescriptor p : config.parameters()) {
            if (!config.isSet(p.name())) {
                continue;
            }
            String value = p.secret() ? config.secret(p.name()).map(s -> s.reveal()).orElse("")
                    : config.text(p.name()).orElse("");
            if (value.chars().anyMatch(c -> c == '\n' || c == '\r' || c == 0)) {
                problems.add(new ConfigProblem(p.name(), (p.secret() ? "holds" : "'" + value.replace("\n", "\\n")
                        .replace("\r", "\\r").replace("\0", "\\0") + "' holds") + " a line break or a NUL character",
                        "give the value on one line: the agent reads one option per line on its standard input"));
            }
        }
        return problems;
    }

    private static Optional<String> value(ParameterDescriptor p, AgentConfig config) {
        if (p.secret()) {
            return config.secret(p.name()).map(s -> s.reveal());
        }
        if (p.type() == ParameterType.BOOLEAN) {
            boolean defaultTrue = p.defaultValue().map(d -> TRUE.contains(d.trim().toLowerCase(Locale.ROOT))).orElse(false);
            return config.bool(p.name()) ? Optional.of("1") : defaultTrue ? Optional.of("0") : Optional.empty();
        }
        if (p.type() == ParameterType.INTEGER) {
            return Optional.of(Integer.toString(config.integer(p.name())));
        }
        return config.text(p.name());
    }

    private static String quoted(String value) {
        boolean quoted = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"");
        return quoted || !value.equals(value.strip()) ? '"' + value + '"' : value;
    }
}
