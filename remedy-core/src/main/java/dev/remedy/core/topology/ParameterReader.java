package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;
import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.ParameterDescriptor;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reads the agent parameters of a fence configuration: a template's {@code parameters} and {@code secrets}, and a
 * node's own parameters for a template. Each key must be a parameter of the template's agent (by name or
 * fence-agents alias, once); secret parameters only as references {@code {env: VAR}}, {@code {file: PATH}} or
 * {@code {secret: {name: N, key: K}}} (a key of a Kubernetes Secret, read by the operator), plain ones only as values, which the agent's own {@link dev.remedy.spi.config.AgentConfig#validate()} checks.
 *
 * <p>No message quotes the value of a secret parameter, of an unknown parameter (it may be a misspelled secret)
 * or of anything written where a secret reference was expected.
 */
final class ParameterReader {

    /** How secret references are written, for messages. */
    static final String REFERENCE = "{env: VAR}, {file: PATH} or {secret: {name: N, key: K}}";
    private static final List<String> KINDS = List.of("env", "file", "secret");
    private static final List<String> SECRET_KEYS = List.of("name", "key");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Where a parameter map sits, which decides whether plain values or secret references belong there. */
    enum Section {
        /** {@code templates.T.parameters}: plain values only. */
        PARAMETERS,
        /** {@code templates.T.secrets}: secret references only. */
        SECRETS,
        /** {@code nodes.N.T}: plain values, and secret references for secret parameters. */
        NODE
    }

    private final ConfigProblems problems;

    ParameterReader(ConfigProblems problems) {
        this.problems = problems;
    }

    /** The parameters at {@code path} for the agent of {@code provider}; none when {@code node} is null. */
    MethodParameters read(ConfigNode node, String path, FenceAgentProvider provider, Section section) {
        if (node == null) {
            return MethodParameters.NONE;
        }
        if (!node.isObject()) {
            problems.add(path, "must be a mapping of parameter names to " + (section == Section.SECRETS
                    ? "secret references " + REFERENCE : "values") + ", not " + describe(node));
            return MethodParameters.NONE;
        }
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, SecretRef> secrets = new LinkedHashMap<>();
        Map<String, String> givenAs = new HashMap<>();
        node.properties().forEach(entry -> {
            String key = entry.getKey();
            ConfigNode value = entry.getValue();
            String at = child(path, key);
            Optional<ParameterDescriptor> found = provider.parameters().stream().filter(p -> p.answersTo(key))
                    .findFirst();
            if (found.isEmpty()) {
                List<String> names = provider.parameters().stream().map(ParameterDescriptor::name).toList();
                problems.add(at, "is not a parameter of agent '" + provider.type() + "'"
                        + hint(key, names, "its parameters are"));
                return;
            }
            ParameterDescriptor parameter = found.get();
            String earlier = givenAs.putIfAbsent(parameter.name(), key);
            if (earlier != null) {
                problems.add(at, "gives parameter '" + parameter.name() + "' a second time (as '" + earlier
                        + "' already); give it once");
                return;
            }
            if (parameter.secret()) {
                secret(key, value, at, section).ifPresent(ref -> secrets.put(parameter.name(), ref));
            } else {
                plain(key, value, at, section, provider, parameter)
                        .ifPresent(text -> values.put(parameter.name(), text));
            }
        });
        return new MethodParameters(values, secrets, givenAs);
    }

    private Optional<SecretRef> secret(String key, ConfigNode value, String at, Section section) {
        switch (section) {
            case PARAMETERS -> {
                problems.add(at, "'" + key + "' is secret: give it under secrets as " + REFERENCE + ", never in plain "
                        + "text");
                return Optional.empty();
            }
            case NODE -> {
                if (!value.isObject()) {
                    problems.add(at, "'" + key + "' is secret: give it as " + REFERENCE + ", never in plain text");
                    return Optional.empty();
                }
                return reference(value, at);
            }
            default -> {
                return reference(value, at);
            }
        }
    }

    /** A plain value, checked by the agent's own validation; its problems are moved to where the value stands. */
    private Optional<String> plain(String key, ConfigNode value, String at, Section section,
                                   FenceAgentProvider provider, ParameterDescriptor parameter) {
        if (section == Section.SECRETS) {
            problems.add(at, "'" + key + "' is not secret: give its value under parameters");
            return Optional.empty();
        }
        if (value.isObject() && KINDS.stream().anyMatch(value::has)) {
            problems.add(at, "'" + key + "' is not secret: give its value in plain text, not as a secret reference");
            return Optional.empty();
        }
        Optional<String> text = problems.scalar(value, at);
        text.ifPresent(given -> provider.configure().set(parameter.name(), given).build().validate().stream()
                .filter(p -> p.path().equals(parameter.name()))
                .forEach(p -> problems.add(p.at(problems.source(), at))));
        return text;
    }

    private Optional<SecretRef> reference(ConfigNode value, String at) {
        if (!value.isObject()) {
            problems.add(at, "give a reference " + REFERENCE + ", never the secret itself");
            return Optional.empty();
        }
        List<String> keys = value.keys();
        boolean others = keys.stream().anyMatch(k -> !KINDS.contains(k));
        if (others || keys.size() != 1) {
            // Other keys are not named: YAML reads a secret written as {hunter2} as a key.
            problems.add(at, "must be exactly one of " + REFERENCE + (others ? "; it has other keys (not shown, in "
                    + "case one is the secret itself)" : ""));
            return Optional.empty();
        }
        String kind = keys.get(0);
        ConfigNode location = value.get(kind);
        String where = child(at, kind);
        if (kind.equals("secret")) {
            return kubernetesSecret(location, where);
        }
        boolean env = kind.equals("env");
        if (!location.isTextual() || location.asText().isBlank()) {
            problems.add(where, "must be " + (env ? "the name of an environment variable" : "an absolute file path")
                    + " as text");
            return Optional.empty();
        }
        String text = location.asText();
        if (env && !ENV_NAME.matcher(text).matches()) {
            problems.add(where, "is not an environment variable name (letters, digits and _, not starting with a "
                    + "digit); the name is not shown in case it is the secret itself");
            return Optional.empty();
        }
        if (!env && !isAbsolute(text)) {
            problems.add(where, "must be an absolute file path, such as /run/secrets/bmc-password");
            return Optional.empty();
        }
        return Optional.of(env ? SecretRef.env(text) : SecretRef.file(text));
    }

    /**
     * {@code {name: N, key: K}}: a key of a Kubernetes Secret in the operator's namespace. Every problem of it is
     * reported (a missing name and a missing key both); no value is shown, in case one is the secret itself.
     */
    private Optional<SecretRef> kubernetesSecret(ConfigNode node, String at) {
        if (!node.isObject()) {
            problems.add(at, "must be a mapping {name: N, key: K}: the name of a Secret in the operator's namespace "
                    + "and the key of its data that holds the secret; not " + describe(node));
            return Optional.empty();
        }
        if (node.keys().stream().anyMatch(k -> !SECRET_KEYS.contains(k))) {
            problems.add(at, "must have only the keys name and key; it has other keys (not shown, in case one is the "
                    + "secret itself)");
        }
        Optional<String> name = secretPart(node.get("name"), child(at, "name"), "the name of a Secret in the "
                + "operator's namespace", SecretRef::isSecretName, "a Secret name (lower-case letters, digits, '-' "
                + "and '.', at most 253 characters)");
        Optional<String> key = secretPart(node.get("key"), child(at, "key"), "the key of the Secret's data that "
                + "holds the secret", SecretRef::isSecretKey, "a key of a Secret's data (letters, digits, '-', '_' "
                + "and '.', at most 253 characters)");
        if (name.isEmpty() || key.isEmpty() || node.keys().size() != SECRET_KEYS.size()) {
            return Optional.empty();
        }
        return Optional.of(SecretRef.secret(name.get(), key.get()));
    }

    private Optional<String> secretPart(ConfigNode node, String at, String what, Predicate<String> valid,
                                        String form) {
        if (node == null) {
            problems.add(at, "is missing; give " + what);
            return Optional.empty();
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            problems.add(at, "must be " + what + " as text, not " + (node.isTextual() ? "blank" : describe(node)));
            return Optional.empty();
        }
        if (!valid.test(node.asText())) {
            problems.add(at, "is not " + form + "; the value is not shown in case it is the secret itself");
            return Optional.empty();
        }
        return Optional.of(node.asText());
    }

    private static boolean isAbsolute(String path) {
        try {
            return Path.of(path).isAbsolute();
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
