package dev.remedy.simulators.ssh;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Faults an {@link SshDeviceSimulator} injects, set from any thread; they apply to command lines received from
 * then on, in shells and exec requests alike. A command line matches a prefix when, stripped of leading and
 * trailing blanks, it starts with it. Thread-safe.
 */
public final class SshFaults {

    private final List<String> hangs = new CopyOnWriteArrayList<>();
    private final Map<String, String> errors = new LinkedHashMap<>();
    private volatile Duration bannerDelay = Duration.ZERO;
    private volatile Duration replyDelay = Duration.ZERO;
    private volatile boolean echoCredentials;

    SshFaults() {
    }

    /**
     * Makes the device hang on a command line starting with {@code commandPrefix}: it echoes the line, then
     * prints nothing more and never answers again in that session, which stays open.
     */
    public SshFaults hangOn(String commandPrefix) {
        hangs.add(Objects.requireNonNull(commandPrefix, "commandPrefix"));
        return this;
    }

    /**
     * Makes the device print {@code reply} (its lines ended with CR LF, then the prompt) instead of running a
     * command line starting with {@code commandPrefix}; replaces an earlier reply for the same prefix. The first
     * matching prefix, in the order added, wins.
     */
    public SshFaults errorOn(String commandPrefix, String reply) {
        Objects.requireNonNull(commandPrefix, "commandPrefix");
        Objects.requireNonNull(reply, "reply");
        synchronized (errors) {
            errors.put(commandPrefix, reply);
        }
        return this;
    }

    /**
     * Delays the login banner and first prompt of each new shell by {@code delay} (real time; {@code ZERO}
     * turns it off).
     *
     * @throws IllegalArgumentException if negative
     */
    public SshFaults bannerDelay(Duration delay) {
        this.bannerDelay = nonNegative("bannerDelay", delay);
        return this;
    }

    /** The delay before each shell's banner and first prompt. */
    public Duration bannerDelay() {
        return bannerDelay;
    }

    /**
     * Delays the answer to every command line by {@code delay} (real time; the command runs when its answer is
     * due; {@code ZERO} turns it off).
     *
     * @throws IllegalArgumentException if negative
     */
    public SshFaults replyDelay(Duration delay) {
        this.replyDelay = nonNegative("replyDelay", delay);
        return this;
    }

    /** The delay before each command's answer. */
    public Duration replyDelay() {
        return replyDelay;
    }

    /**
     * Makes the device answer every command line with an error that quotes the line and the session's login, user
     * and password ({@code true}), as careless firmware does, or stops it ({@code false}); hangs and
     * {@link #errorOn} replies come first. The error has the form of the device's own errors (APC {@code E101: },
     * IOS {@code % Invalid input}, Brocade {@code Error: }, Linux {@code : command not found}), so a client's
     * profile recognizes it. For tests that a client keeps echoed secrets out of what it reports.
     */
    public SshFaults echoCredentials(boolean enabled) {
        this.echoCredentials = enabled;
        return this;
    }

    /** Whether the device echoes the session's credentials in an error to every command line. */
    public boolean echoCredentials() {
        return echoCredentials;
    }

    /** Removes every fault: no hang, no error reply, no delay, no echo. Sessions already hung stay hung. */
    public void clear() {
        hangs.clear();
        synchronized (errors) {
            errors.clear();
        }
        bannerDelay = Duration.ZERO;
        replyDelay = Duration.ZERO;
        echoCredentials = false;
    }

    boolean hangs(String command) {
        return hangs.stream().anyMatch(command::startsWith);
    }

    Optional<String> errorFor(String command) {
        synchronized (errors) {
            return errors.entrySet().stream().filter(e -> command.startsWith(e.getKey())).map(Map.Entry::getValue)
                    .findFirst();
        }
    }

    private static Duration nonNegative(String what, Duration value) {
        Objects.requireNonNull(value, what);
        if (value.isNegative()) {
            throw new IllegalArgumentException(what + " " + value + " must not be negative");
        }
        return value;
    }

    @Override
    public String toString() {
        synchronized (errors) {
            return "SshFaults[hangOn=" + hangs + ", errorOn=" + errors.keySet() + ", bannerDelay=" + bannerDelay
                    + ", replyDelay=" + replyDelay + ", echoCredentials=" + echoCredentials + "]";
        }
    }
}
