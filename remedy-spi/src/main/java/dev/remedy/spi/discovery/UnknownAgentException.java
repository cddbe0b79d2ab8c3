package dev.remedy.spi.discovery;

import dev.remedy.spi.RemedyException;
import java.util.Set;
import java.util.TreeSet;

/** Thrown when no provider has the requested agent type. */
public class UnknownAgentException extends RemedyException {

    private final String type;

    /** An exception for {@code type}, listing the {@code known} ones. */
    public UnknownAgentException(String type, Set<String> known) {
        super("unknown agent type '" + type + "'; known types: "
                + (known.isEmpty() ? "none (no agent jar is on the class path)" : String.join(", ", new TreeSet<>(known)))
                + ". Check the spelling, or add the jar that provides it to the class path");
        this.type = type;
    }

    /** The requested type. */
    public String type() {
        return type;
    }
}
