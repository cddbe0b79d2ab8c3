package dev.remedy.spi;

import java.util.Objects;

/**
 * One action asked of an agent.
 *
 * @param action    what to do
 * @param initiator who asked, for logs and history (for example {@code "cli"} or {@code "engine/node-7"})
 */
public record FenceRequest(FenceAction action, String initiator) {

    /** Validates that both fields are present. */
    public FenceRequest {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(initiator, "initiator");
    }

    /** A request for {@code action} from an unnamed caller. */
    public static FenceRequest of(FenceAction action) {
        return new FenceRequest(action, "api");
    }
}
