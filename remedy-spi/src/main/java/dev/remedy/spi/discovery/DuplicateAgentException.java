package dev.remedy.spi.discovery;

import dev.remedy.spi.RemedyException;
import java.util.List;

/** Thrown when the requested agent type is claimed by more than one provider; names every class. */
public class DuplicateAgentException extends RemedyException {

    private final String type;
    private final List<String> providers;

    /** An exception for {@code type}, claimed by the {@code providers} classes. */
    public DuplicateAgentException(String type, List<String> providers) {
        super("agent type '" + type + "' is provided by " + providers.size() + " classes: "
                + String.join(" and ", providers)
                + "; remedy will not guess which one fences your machines. Remove one of the jars from the class path");
        this.type = type;
        this.providers = List.copyOf(providers);
    }

    /** The contested type. */
    public String type() {
        return type;
    }

    /** The class names of every provider claiming the type. */
    public List<String> providers() {
        return providers;
    }
}
