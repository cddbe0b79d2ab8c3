package dev.remedy.fence.ssh.internal.profile;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A command that reads a state, and the patterns that say what it read. The patterns may hold {@code {plug}} (or
 * {@code {port}}), replaced by the plug quoted as a literal; each is searched line by line in the reply.
 *
 * @param command the command, with placeholders
 * @param on      the pattern of a line that means on (enabled, active)
 * @param off     the pattern of a line that means off (disabled, isolated), if the device can say so
 */
public record StateCheck(String command, String on, Optional<String> off) {

    /** Checks that the fields are present. */
    public StateCheck {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(on, "on");
        Objects.requireNonNull(off, "off");
    }

    /** The pattern meaning on, for {@code plug} (empty for devices without plugs). */
    public Pattern onPattern(String plug) {
        return Placeholders.pattern(on, plug);
    }

    /** The pattern meaning off, for {@code plug}. */
    public Optional<Pattern> offPattern(String plug) {
        return off.map(text -> Placeholders.pattern(text, plug));
    }
}
