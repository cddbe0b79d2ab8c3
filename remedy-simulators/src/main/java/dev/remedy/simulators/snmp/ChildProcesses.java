package dev.remedy.simulators.snmp;

import dev.remedy.simulators.PeerCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What {@link SnmpdProcess} does with the processes it starts and runs: stop them, run tools, read their logs. */
final class ChildProcesses {

    /** How long a process gets after SIGTERM, and again after SIGKILL. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private ChildProcesses() {
    }

    /** Stops one process by its pid: SIGTERM, up to {@link #STOP_TIMEOUT}, then SIGKILL and as long again. */
    static void terminate(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return;
        }
        handle.destroy();
        if (!waitFor(handle)) {
            handle.destroyForcibly();
            waitFor(handle);
        }
    }

    /**
     * Runs a tool once.
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

    /** Sleeps a little between polls. */
    static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for snmpd", e);
        }
    }

    /** A log file's text, or a note when it is missing or unreadable. */
    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(none)";
        } catch (IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** The last 30 lines of {@code text}, for exception messages. */
    static String tail(String text) {
        List<String> lines = text.lines().toList();
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        return tail.isEmpty() ? "(empty)" : tail;
    }

    private static boolean waitFor(ProcessHandle handle) {
        try {
            handle.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !handle.isAlive();
        } catch (Exception e) {
            return !handle.isAlive();
        }
    }
}
