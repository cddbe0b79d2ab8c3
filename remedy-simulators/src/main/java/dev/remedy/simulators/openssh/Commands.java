package dev.remedy.simulators.openssh;

import dev.remedy.simulators.PeerCommand;
import java.time.Duration;

/** Runs the OpenSSH tools and account commands the server needs, each with a bounded wait. */
final class Commands {

    /** How long one tool may run (ssh-keygen makes an RSA 3072 key in well under a second). */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Commands() {
    }

    /** {@link PeerCommand#of} with {@link #TIMEOUT}. */
    static PeerCommand of(String... command) {
        return PeerCommand.of(TIMEOUT, command);
    }

    /**
     * Runs {@code command} once and returns how it ended, whatever the exit code.
     *
     * @throws IllegalStateException if interrupted (the interrupt flag is set again)
     */
    static PeerCommand.Result run(PeerCommand command) {
        try {
            return command.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.command().get(0), e);
        }
    }

    /**
     * Runs {@code command} and returns its output, or throws when it fails.
     *
     * @param what what the command does, for the message (for example "generate the host key")
     * @throws IllegalStateException naming {@code what}, the program, its exit code and output, when it exits
     *     non-zero or times out
     */
    static String check(String what, PeerCommand command) {
        PeerCommand.Result result = run(command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("cannot " + what + ": " + command.command().get(0)
                    + (result.timedOut() ? " timed out" : " exited with status " + result.exitCode()) + ": "
                    + (result.output().isEmpty() ? "(no output)" : result.output()));
        }
        return result.output();
    }
}
