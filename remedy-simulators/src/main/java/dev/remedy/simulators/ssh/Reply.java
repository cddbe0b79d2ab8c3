package dev.remedy.simulators.ssh;

import java.util.List;
import java.util.function.Function;

/** What a {@link DeviceCli} answers to one line; the simulator's terminal prints it and goes on accordingly. */
public sealed interface Reply {

    /**
     * Lines (each printed with CR LF), then the prompt; with a page length above 0 and more lines than that, the
     * terminal prints {@code more} after every {@code pageLength} lines and waits for a key.
     */
    record Lines(List<String> lines, int pageLength, String more) implements Reply {
    }

    /**
     * Prints {@code question} (no line end), reads a line and goes on with the reply to that answer; the answer is
     * echoed as typed unless {@code echo} is false (a password prompt).
     */
    record Ask(String question, Function<String, Reply> answer, boolean echo) implements Reply {

        /** A question whose answer is echoed. */
        public Ask(String question, Function<String, Reply> answer) {
            this(question, answer, true);
        }
    }

    /** Prints the lines, then ends the session's shell or command (exit status 0). */
    record Close(List<String> lines) implements Reply {
    }

    /**
     * Prints nothing more, runs {@code action} once the output so far (the echo) is written, then drops the SSH
     * connection.
     */
    record Drop(Runnable action) implements Reply {
    }

    /** Lines without paging. */
    public static Reply lines(String... lines) {
        return new Lines(List.of(lines), 0, "");
    }

    /** Lines without paging. */
    public static Reply lines(List<String> lines) {
        return new Lines(List.copyOf(lines), 0, "");
    }

    /** Lines with paging ({@code pageLength} 0: none). */
    public static Reply paged(List<String> lines, int pageLength, String more) {
        return new Lines(List.copyOf(lines), pageLength, more);
    }

    /** A question, answered by the next line. */
    public static Reply ask(String question, Function<String, Reply> answer) {
        return new Ask(question, answer);
    }

    /** A question whose answer is not echoed, as a password prompt. */
    public static Reply askSecret(String question, Function<String, Reply> answer) {
        return new Ask(question, answer, false);
    }

    /** The last lines of a session. */
    public static Reply close(String... lines) {
        return new Close(List.of(lines));
    }

    /** A dropped connection, after {@code action}. */
    public static Reply drop(Runnable action) {
        return new Drop(action);
    }
}
