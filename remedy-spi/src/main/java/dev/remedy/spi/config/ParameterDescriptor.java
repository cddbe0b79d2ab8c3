package dev.remedy.spi.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Describes one parameter an agent accepts.
 *
 * @param name            remedy's name, lower case with underscores; equal to the fence-agents option where one exists
 * @param type            how the value is parsed
 * @param required        whether a value must be given (a required parameter has no default)
 * @param defaultValue    the value used when none is given
 * @param secret          whether the value is a secret (masked everywhere, never accepted on a command line)
 * @param description     one sentence for users
 * @param fenceAgentsName the ClusterLabs fence-agents option of the same meaning ({@code ip}, {@code lanplus}),
 *                        accepted as an alias of {@code name}
 * @param allowedValues   the allowed values of a {@link ParameterType#CHOICE}; empty otherwise
 */
public record ParameterDescriptor(String name, ParameterType type, boolean required, Optional<String> defaultValue,
                                  boolean secret, String description, Optional<String> fenceAgentsName,
                                  List<String> allowedValues) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    /** Checks that the descriptor is consistent: a valid name, a default of the right type, choices for a choice. */
    public ParameterDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(fenceAgentsName, "fenceAgentsName");
        allowedValues = List.copyOf(allowedValues);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("parameter name '" + name + "' must match " + NAME);
        }
        if (required && defaultValue.isPresent()) {
            throw new IllegalArgumentException("parameter '" + name + "' is required and cannot have a default");
        }
        if (secret && defaultValue.isPresent()) {
            throw new IllegalArgumentException("secret parameter '" + name + "' cannot have a default");
        }
        if ((type == ParameterType.CHOICE) == allowedValues.isEmpty()) {
            throw new IllegalArgumentException("parameter '" + name + "': allowed values go with type CHOICE only");
        }
        List<String> choices = allowedValues;
        defaultValue.flatMap(d -> type.problemWith(d, choices)).ifPresent(p -> {
            throw new IllegalArgumentException("parameter '" + name + "' has a bad default: " + p);
        });
    }

    /** Starts a descriptor of {@code name} and {@code type}: optional, not secret, no default. */
    public static Builder builder(String name, ParameterType type) {
        return new Builder(name, type);
    }

    /** Whether {@code key} names this parameter, by its name or its fence-agents alias. */
    public boolean answersTo(String key) {
        return name.equals(key) || fenceAgentsName.filter(key::equals).isPresent();
    }

    /** Builds a {@link ParameterDescriptor}. */
    public static final class Builder {
        private final String name;
        private final ParameterType type;
        private boolean required;
        private String defaultValue;
        private boolean secret;
        private String description = "";
        private String fenceAgentsName;
        private List<String> allowedValues = List.of();

        private Builder(String name, ParameterType type) {
            this.name = name;
            this.type = type;
        }

        /** The parameter must be given. */
        public Builder required() {
            this.required = true;
            return this;
        }

        /** The value used when none is given. */
        public Builder defaultValue(String value) {
            this.defaultValue = value;
            return this;
        }

        /** The value is a secret. */
        public Builder secret() {
            this.secret = true;
            return this;
        }

        /** One sentence for users. */
        public Builder description(String text) {
            this.description = text;
            return this;
        }

        /** The ClusterLabs fence-agents option of the same meaning. */
        public Builder fenceAgentsName(String option) {
            this.fenceAgentsName = option;
            return this;
        }

        /** The allowed values (makes sense with {@link ParameterType#CHOICE}). */
        public Builder allowedValues(String... values) {
            this.allowedValues = List.of(values);
            return this;
        }

        /** The descriptor; throws {@link IllegalArgumentException} if it is inconsistent. */
        public ParameterDescriptor build() {
            return new ParameterDescriptor(name, type, required, Optional.ofNullable(defaultValue), secret,
                    description, Optional.ofNullable(fenceAgentsName), allowedValues);
        }
    }
}
