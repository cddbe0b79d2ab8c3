package dev.remedy.spi.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The configuration of one agent: a key/value lookup bound to the agent's {@link ParameterDescriptor}s, with
 * typed getters that apply defaults. Keys may be remedy's names or the fence-agents aliases. Values of secret
 * parameters are held as {@link Secret}s and masked in {@link #toString()}.
 *
 * <p>{@link #validate()} reports every problem at once; providers call {@link #requireValid()} in
 * {@code create}. Immutable and thread-safe.
 */
public final class AgentConfig {

    private final String agentType;
    private final List<ParameterDescriptor> parameters;
    private final Map<String, String> values;
    private final Map<String, Secret> secrets;

    private AgentConfig(Builder builder) {
        this.agentType = builder.agentType;
        this.parameters = builder.parameters;
        this.values = Map.copyOf(builder.values);
        this.secrets = Map.copyOf(builder.secrets);
    }

    /** A builder for the agent {@code agentType} with the given parameters. */
    public static Builder builder(String agentType, List<ParameterDescriptor> parameters) {
        return new Builder(agentType, parameters);
    }

    /** The agent type this configuration is for. */
    public String agentType() {
        return agentType;
    }

    /** The parameters this configuration is checked against. */
    public List<ParameterDescriptor> parameters() {
        return parameters;
    }

    /** Whether a value (or secret) was given for {@code name}. */
    public boolean isSet(String name) {
        return values.containsKey(name) || secrets.containsKey(name);
    }

    /** The given text, or the default, of a non-secret parameter. */
    public Optional<String> text(String name) {
        ParameterDescriptor descriptor = descriptor(name);
        if (descriptor.secret()) {
            throw new IllegalArgumentException("parameter '" + name + "' is secret: read it with secret()");
        }
        return Optional.ofNullable(values.get(name)).or(descriptor::defaultValue);
    }

    /** The value of a required (or defaulted) string parameter. */
    public String string(String name) {
        return text(name).orElseThrow(() -> missing(name));
    }

    /** The value of an integer parameter. */
    public int integer(String name) {
        return parse(name, Values::parseInteger);
    }

    /** The value of a boolean parameter. */
    public boolean bool(String name) {
        return parse(name, Values::parseBoolean);
    }

    /** The value of a duration parameter ({@code 30s}, {@code 500ms}, {@code PT30S}, or seconds). */
    public Duration duration(String name) {
        return parse(name, Values::parseDuration);
    }

    /** The value of a secret parameter. */
    public Optional<Secret> secret(String name) {
        ParameterDescriptor descriptor = descriptor(name);
        if (!descriptor.secret()) {
            throw new IllegalArgumentException("parameter '" + name + "' is not secret: read it with text()");
        }
        return Optional.ofNullable(secrets.get(name));
    }

    /** Every problem of this configuration: unknown keys, missing required values, malformed values. */
    public List<ConfigProblem> validate() {
        List<ConfigProblem> problems = new ArrayList<>();
        for (String key : unknownKeys()) {
            problems.add(new ConfigProblem(key, "is not a parameter of agent '" + agentType + "'",
                    suggestion(key)));
        }
        for (ParameterDescriptor p : parameters) {
            if (p.required() && !isSet(p.name())) {
                problems.add(new ConfigProblem(p.name(), "is required but was not given", "give "
                        + p.type().expected() + choices(p) + (p.description().isEmpty() ? "" : " (" + p.description() + ")")));
            }
            String given = values.get(p.name());
            if (given != null) {
                p.type().problemWith(given, p.allowedValues()).ifPresent(why -> problems.add(
                        new ConfigProblem(p.name(), why, "give " + p.type().expected() + choices(p))));
            }
        }
        return List.copyOf(problems);
    }

    /**
     * Returns this configuration if it has no problems.
     *
     * @throws InvalidConfigurationException listing every problem
     */
    public AgentConfig requireValid() {
        List<ConfigProblem> problems = validate();
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(agentType, problems);
        }
        return this;
    }

    /**
     * {@code type{key=value, password=******}}, in parameter order. Values of unknown keys are hidden too: a
     * misspelled secret key ({@code pasword}) must not print the password.
     */
    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>();
        for (ParameterDescriptor p : parameters) {
            if (secrets.containsKey(p.name())) {
                shown.put(p.name(), secrets.get(p.name()).toString());
            } else if (values.containsKey(p.name())) {
                shown.put(p.name(), values.get(p.name()));
            }
        }
        unknownKeys().forEach(k -> shown.put(k, "<not a parameter, value hidden>"));
        return agentType + shown;
    }

    private static String choices(ParameterDescriptor p) {
        return p.allowedValues().isEmpty() ? "" : ": " + String.join(", ", p.allowedValues());
    }

    private List<String> unknownKeys() {
        return values.keySet().stream()
                .filter(k -> parameters.stream().noneMatch(p -> p.name().equals(k)))
                .sorted().collect(Collectors.toList());
    }

    private String suggestion(String key) {
        List<String> names = parameters.stream().map(ParameterDescriptor::name).toList();
        return DidYouMean.nearest(key, names).map(p -> "did you mean '" + p + "'? ").orElse("")
                + "known parameters: " + String.join(", ", names);
    }

    private <T> T parse(String name, java.util.function.Function<String, T> parser) {
        String text = string(name);
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(agentType, List.of(new ConfigProblem(name, e.getMessage(),
                    "give " + descriptor(name).type().expected())));
        }
    }

    private InvalidConfigurationException missing(String name) {
        ParameterDescriptor p = descriptor(name);
        return new InvalidConfigurationException(agentType, List.of(new ConfigProblem(name, p.required()
                ? "is required but was not given" : "was not given and has no default",
                "give " + p.type().expected() + choices(p))));
    }

    private ParameterDescriptor descriptor(String name) {
        return parameters.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("agent '" + agentType + "' has no parameter '" + name + "'"));
    }

    /** Builds an {@link AgentConfig}; keys are matched to parameters by name or fence-agents alias. */
    public static final class Builder {
        private final String agentType;
        private final List<ParameterDescriptor> parameters;
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, Secret> secrets = new LinkedHashMap<>();

        private Builder(String agentType, List<ParameterDescriptor> parameters) {
            this.agentType = Objects.requireNonNull(agentType, "agentType");
            this.parameters = List.copyOf(parameters);
        }

        /**
         * Sets {@code key} (a name or a fence-agents alias) to {@code value}. A value given for a secret
         * parameter is stored as a {@link Secret}. Unknown keys are kept and reported by {@link #validate()}.
         */
        public Builder set(String key, String value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value of " + key);
            Optional<ParameterDescriptor> p = find(key);
            if (p.isPresent() && p.get().secret()) {
                secrets.put(p.get().name(), Secret.of(value));
            } else {
                values.put(p.map(ParameterDescriptor::name).orElse(key), value);
            }
            return this;
        }

        /** Sets the secret parameter {@code key} (a name or a fence-agents alias). */
        public Builder secret(String key, Secret value) {
            ParameterDescriptor p = find(key).filter(ParameterDescriptor::secret).orElseThrow(() ->
                    new IllegalArgumentException("agent '" + agentType + "' has no secret parameter '" + key + "'"));
            secrets.put(p.name(), Objects.requireNonNull(value, "value of " + key));
            return this;
        }

        /** Sets every entry of {@code entries}, as {@link #set} does. */
        public Builder setAll(Map<String, String> entries) {
            entries.forEach(this::set);
            return this;
        }

        /** Whether {@code key} names a secret parameter of this agent. */
        public boolean isSecret(String key) {
            return find(key).map(ParameterDescriptor::secret).orElse(false);
        }

        /** The configuration (which may still be invalid: see {@link AgentConfig#validate()}). */
        public AgentConfig build() {
            return new AgentConfig(this);
        }

        private Optional<ParameterDescriptor> find(String key) {
            return parameters.stream().filter(p -> p.answersTo(key)).findFirst();
        }
    }
}
