package dev.remedy.fence.ssh;

import dev.remedy.fence.ssh.internal.profile.DeviceProfile;
import dev.remedy.fence.ssh.internal.profile.Enable;
import dev.remedy.fence.ssh.internal.profile.Prompt;
import dev.remedy.fence.ssh.internal.session.DeviceShell;
import dev.remedy.fence.ssh.internal.session.SshException;
import dev.remedy.spi.config.Secret;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A device's command line driven by its profile: wait for the prompt, type a command, answer the pager and the
 * confirmation questions on the way, and return the reply without the echo, failing on a line that matches one
 * of the profile's errors. Each wait lasts at most {@code shell_timeout} and never past the action's deadline. A
 * login that lands at an unprivileged prompt enters the privileged one first, if the profile says how
 * ({@link Enable}), with the {@code enable_password} secret, which no message ever holds.
 */
final class Conversation {

    /** More pages or questions than this in one reply means the profile does not match the device. */
    private static final int MAX_ANSWERS = 1_000;
    /** How long a device may take to hang up after the exit command before the session is closed anyway. */
    private static final Duration EXIT_WAIT = Duration.ofMillis(300);

    private final DeviceShell shell;
    private final DeviceProfile profile;
    private final Duration shellTimeout;
    private final long deadline;
    private int commands;
    /** The prompt line the device showed last. */
    private String prompt = "";
    /** The enable secret once typed, masked in every message. */
    private Optional<Secret> typed = Optional.empty();

    Conversation(DeviceShell shell, DeviceProfile profile, Duration shellTimeout, long deadlineNanos) {
        this.shell = shell;
        this.profile = profile;
        this.shellTimeout = shellTimeout;
        this.deadline = deadlineNanos;
    }

    /**
     * Waits for the first prompt (after any banner) within {@code loginTimeout}; enters the privileged prompt with
     * {@code enablePassword} if the profile has an enable section and that prompt is not privileged; then sends the
     * setup commands.
     *
     * @throws SshException of kind AUTHENTICATION if the privileged prompt is needed and the secret is missing or
     *     refused
     */
    void start(Duration loginTimeout, Optional<Secret> enablePassword) throws SshException, InterruptedException {
        reply("the first prompt after login", loginTimeout, "login_timeout");
        Optional<Enable> enable = profile.enable();
        if (enable.isPresent() && !enable.get().prompt().matcher(prompt).matches()) {
            enable(enable.get(), enablePassword);
        }
        for (String command : profile.setup()) {
            command(command);
        }
    }

    /** Types {@code command} and returns its reply lines (echo and prompt removed). */
    List<String> command(String command) throws SshException, InterruptedException {
        shell.sendLine(command);
        commands++;
        List<String> lines = reply("'" + command + "'", shellTimeout, "shell_timeout");
        if (!lines.isEmpty() && lines.get(0).strip().endsWith(command.strip())) {
            lines = lines.subList(1, lines.size());
        }
        for (String line : lines) {
            for (Pattern error : profile.errors()) {
                if (error.matcher(line).find()) {
                    throw new SshException(SshException.Kind.DEVICE_ERROR, device() + " answered '" + line.strip()
                            + "' to '" + command + "'");
                }
            }
        }
        return lines;
    }

    /** Types {@code command}, which ends the session (a reboot), and waits until the device closes it. */
    void commandThatDisconnects(String command) throws SshException, InterruptedException {
        shell.sendLine(command);
        commands++;
        if (!shell.awaitEnd(until(shellTimeout))) {
            throw new SshException(SshException.Kind.TIMEOUT, device() + " did not close the session within "
                    + millis(shellTimeout) + " after '" + command + "': the host did not act on it");
        }
    }

    /** Ends the session politely: the exit command, then a short wait (bounded) for the device to hang up. */
    void exit() throws InterruptedException {
        try {
            if (!shell.ended()) {
                shell.sendLine(profile.exit());
                shell.awaitEnd(until(EXIT_WAIT));
            }
        } catch (SshException e) {
            // the session is closed right after anyway
        }
    }

    /** Enters the privileged prompt from the unprivileged one the login landed at. */
    private void enable(Enable enable, Optional<Secret> secret) throws SshException, InterruptedException {
        String unprivileged = prompt.strip();
        if (secret.isEmpty()) {
            throw new SshException(SshException.Kind.AUTHENTICATION, device() + " logged in at the unprivileged "
                    + "prompt '" + unprivileged + "', and profile " + profile.name() + " needs the privileged one ('"
                    + enable.command() + "' asks for a secret): give enable_password, the device's enable secret");
        }
        String after = "'" + enable.command() + "'";
        shell.sendLine(enable.command());
        commands++;
        String part = awaitEnable(enable, after);
        boolean asked = enable.passwordPrompt().matcher(lastLine(part)).matches();
        if (asked) {
            typed = secret;
            shell.sendLine(secret.get().reveal());
            part = awaitEnable(enable, "the enable_password answer to " + after);
        }
        String last = lastLine(part);
        if (profile.prompt().matcher(last).matches() && enable.prompt().matcher(last).matches()) {
            prompt = last;
            return;
        }
        List<String> said = lines(masked(part.substring(0, part.length() - last.length()), secret.get())).stream()
                .map(String::strip).filter(line -> !line.endsWith(enable.command())).limit(2).toList();
        String answered = said.isEmpty() ? "" : " (it answered '" + String.join(" ", said) + "')";
        if (!asked) {
            throw new SshException(SshException.Kind.AUTHENTICATION, device() + " did not enter its privileged prompt"
                    + " on " + after + answered + " and shows '" + masked(last.strip(), secret.get()) + "': it may "
                    + "have no enable secret set, or the profile's enable.prompt does not fit it");
        }
        throw new SshException(SshException.Kind.AUTHENTICATION, device() + " refused enable_password" + answered
                + (enable.passwordPrompt().matcher(last).matches() ? ": it asked for the secret again"
                : ": it stayed at '" + masked(last.strip(), secret.get()) + "'") + "; check enable_password (the "
                + "device's enable secret, not the login password)");
    }

    /** What the device answers after {@code after}, up to a prompt or its password prompt. */
    private String awaitEnable(Enable enable, String after) throws SshException, InterruptedException {
        long until = until(shellTimeout);
        String part = shell.await(line -> profile.prompt().matcher(line).matches()
                || enable.passwordPrompt().matcher(line).matches(), until);
        if (part == null) {
            throw silence(after, shellTimeout, "shell_timeout", until);
        }
        return part;
    }

    /** The device's last unread line, for messages. */
    private String lastShown() {
        return typed.map(secret -> masked(shell.lastLine(), secret)).orElseGet(shell::lastLine);
    }

    private static String lastLine(String text) {
        return text.substring(text.lastIndexOf('\n') + 1);
    }

    /** {@code text} with the secret, should a device echo it, masked. */
    private static String masked(String text, Secret secret) {
        String value = secret.reveal();
        return value.isEmpty() ? text : text.replace(value, Secret.MASK);
    }

    /** How many commands were typed. */
    int commands() {
        return commands;
    }

    /** The reply up to the next prompt, waiting at most {@code timeout}, the option named {@code option}. */
    private List<String> reply(String after, Duration timeout, String option) throws SshException,
            InterruptedException {
        long until = until(timeout);
        StringBuilder text = new StringBuilder();
        for (int answers = 0; answers <= MAX_ANSWERS; answers++) {
            String part = shell.await(this::waiting, until);
            if (part == null) {
                throw silence(after, timeout, option, until);
            }
            int cut = part.lastIndexOf('\n') + 1;
            String last = part.substring(cut);
            if (profile.prompt().matcher(last).matches()) {
                prompt = last;
                text.append(part, 0, cut);
                return lines(text);
            }
            Optional<Prompt> question = question(last);
            if (question.isEmpty()) {
                throw new IllegalStateException("the shell stopped on a line no pattern matches: " + last);
            }
            Prompt answer = question.get();
            if (answer.line()) {
                text.append(part);
                shell.sendLine(answer.send());
            } else {
                text.append(part, 0, cut);
                shell.send(answer.send());
            }
        }
        throw new SshException(SshException.Kind.PROTOCOL, device() + " asked more than " + MAX_ANSWERS
                + " questions or pages after " + after + ": the profile " + profile.name() + " does not fit it");
    }

    private boolean waiting(String lastLine) {
        return profile.prompt().matcher(lastLine).matches() || question(lastLine).isPresent();
    }

    private Optional<Prompt> question(String lastLine) {
        Optional<Prompt> pager = profile.pager().filter(p -> p.pattern().matcher(lastLine).matches());
        if (pager.isPresent()) {
            return pager;
        }
        return profile.confirmations().stream().filter(p -> p.pattern().matcher(lastLine).matches()).findFirst();
    }

    private SshException silence(String after, Duration timeout, String option, long until) {
        if (shell.ended()) {
            return new SshException(SshException.Kind.DISCONNECTED, device() + " closed the session while remedy "
                    + "waited for " + after + "; last line: '" + lastShown() + "'");
        }
        boolean budget = until == deadline;
        return new SshException(SshException.Kind.TIMEOUT, "no prompt from " + device() + " within "
                + (budget ? "the action's deadline" : millis(timeout) + " (" + option + ")") + " after " + after
                + "; last line: '" + lastShown() + "'" + (budget ? "" : "; if the device is slow, raise "
                + option + "; if the prompt differs, set cmd_prompt (now " + profile.prompt().pattern() + ")"));
    }

    private long until(Duration timeout) {
        long wanted = System.nanoTime() + timeout.toNanos();
        return wanted - deadline < 0 ? wanted : deadline;
    }

    private String device() {
        return shell.login().describe();
    }

    private static List<String> lines(CharSequence text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.toString().split("\n", -1)) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static String millis(Duration duration) {
        return duration.toMillis() + " ms";
    }
}
