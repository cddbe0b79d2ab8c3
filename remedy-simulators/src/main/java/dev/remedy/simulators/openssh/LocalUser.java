package dev.remedy.simulators.openssh;

import dev.remedy.simulators.PeerCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local account clients log in as. As root, {@link #ensure} creates it ({@code useradd}, then {@code chpasswd}
 * with the password on standard input) and {@link #deleteIfOwned} removes it ({@code userdel}). Accounts the
 * fixture made carry {@link #MARKER} as their comment, so a leftover from a killed JVM is recognised, reused and
 * deleted; any other existing account is used as it is and never changed.
 */
final class LocalUser {

    /** The comment (GECOS field) of the accounts this fixture creates. */
    static final String MARKER = "remedy testkit sshd user";

    private static final Duration USERDEL_PATIENCE = Duration.ofSeconds(5);

    private final String name;
    private final boolean owned;

    private LocalUser(String name, boolean owned) {
        this.name = name;
        this.owned = owned;
    }

    /** The account this JVM already runs as: never created, changed or deleted. */
    static LocalUser existing(String name) {
        return new LocalUser(name, false);
    }

    /**
     * As root: creates the account with {@code password} unless it exists; an account left by an earlier run (it
     * carries {@link #MARKER}) gets {@code password} again and is owned like a new one.
     *
     * @throws IllegalStateException if {@code useradd} or {@code chpasswd} fails (an account created here is
     *     deleted again first)
     */
    static LocalUser ensure(String name, String password) {
        Optional<String> comment = comment(name);
        if (comment.isPresent() && !comment.get().equals(MARKER)) {
            return new LocalUser(name, false);
        }
        if (comment.isEmpty()) {
            // -d /: no home directory (-M), and a home sshd can chdir to, or every session would start with
            // "Could not chdir to home directory" before the device's banner.
            Commands.check("create the local user " + name + " for sshd",
                    Commands.of("useradd", "-M", "-d", "/", "-s", "/bin/sh", "-c", MARKER, name));
        }
        LocalUser user = new LocalUser(name, true);
        try {
            Commands.check("set the password of local user " + name,
                    new PeerCommand(List.of("chpasswd"), Map.of(), name + ":" + password + "\n", Commands.TIMEOUT));
        } catch (RuntimeException e) {
            try {
                user.deleteIfOwned();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return user;
    }

    /** The account's name. */
    String name() {
        return name;
    }

    /** Whether this fixture made the account (and so knows its password and deletes it). */
    boolean owned() {
        return owned;
    }

    /** Whether an account of this name exists ({@code getent passwd}). */
    static boolean exists(String name) {
        return comment(name).isPresent();
    }

    /**
     * Deletes the account if this fixture made it. {@code userdel} refuses while a process of the user runs (a
     * session still closing): it is retried for up to 5 s.
     *
     * @throws IllegalStateException if {@code userdel} still fails then
     */
    void deleteIfOwned() {
        if (!owned) {
            return;
        }
        long deadline = System.nanoTime() + USERDEL_PATIENCE.toNanos();
        while (true) {
            PeerCommand.Result result = Commands.run(Commands.of("userdel", name));
            if (result.exitCode() == 0 || !exists(name)) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("cannot delete the local user " + name + " that the sshd fixture "
                        + "created: userdel exited with status " + result.exitCode() + ": " + result.output()
                        + "; delete it by hand: userdel " + name);
            }
            pause();
        }
    }

    /** The account's comment (GECOS) field, or empty when there is no such account. */
    private static Optional<String> comment(String name) {
        PeerCommand.Result result = Commands.run(Commands.of("getent", "passwd", name));
        if (result.exitCode() == 2) {
            return Optional.empty();
        }
        if (result.exitCode() != 0) {
            throw new IllegalStateException("cannot look up local user " + name + ": getent exited with status "
                    + result.exitCode() + ": " + result.output());
        }
        String[] fields = result.output().split(":", -1);
        return Optional.of(fields.length > 4 ? fields[4] : "");
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting a local user", e);
        }
    }
}
