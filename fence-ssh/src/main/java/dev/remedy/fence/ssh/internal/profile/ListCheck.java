package dev.remedy.fence.ssh.internal.profile;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to list every plug of a device: a command, and a pattern per line with the named groups {@code plug},
 * {@code state} and optionally {@code alias}.
 *
 * @param command the command
 * @param item    the pattern of one plug's line
 * @param on      the pattern the {@code state} group matches when the plug is on (otherwise it is off)
 */
public record ListCheck(String command, Pattern item, Pattern on) {

    /** Checks that the fields are present. */
    public ListCheck {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(on, "on");
    }
}
