package dev.remedy.fence.ssh.internal.profile;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Something a device asks in the middle of a command, and the answer to send: a pager ({@code --More--}, answered
 * with a space, no line end) or a confirmation ({@code Enter 'YES' to continue}, answered with a line).
 *
 * @param pattern matched against the whole last line the device wrote
 * @param send    the answer
 * @param line    whether the answer ends with a line end
 */
public record Prompt(Pattern pattern, String send, boolean line) {

    /** Checks that the fields are present. */
    public Prompt {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(send, "send");
    }
}
