package dev.remedy.fence.ssh.internal.profile;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a device that logs in at an unprivileged prompt (Cisco's user exec, {@code switch>}) enters the privileged one
 * ({@code switch#}) that its commands need: a command, a password prompt answered with the {@code enable_password}
 * secret, and the privileged prompt. A login whose first prompt is not {@code prompt} goes through it.
 *
 * @param command        the command that asks for privileges, {@code enable}
 * @param passwordPrompt the whole last line when the device asks for the secret, e.g. {@code Password: }
 * @param prompt         the whole last line of a privileged prompt; it must match {@link DeviceProfile#prompt()} too
 */
public record Enable(String command, Pattern passwordPrompt, Pattern prompt) {

    /** Checks that the fields are present. */
    public Enable {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(passwordPrompt, "passwordPrompt");
        Objects.requireNonNull(prompt, "prompt");
    }
}
