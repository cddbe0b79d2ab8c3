package dev.remedy.simulators.pacemaker;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One child process that runs until stopped (corosync, pacemaker-fenced) and logs to a file: started, waited for
 * until its log says it is ready, and stopped with every process it started.
 */
final class Daemon {

    private static final int LOG_TAIL_LINES = 30;
    private static final long POLL_MILLIS = 50;

    private final String name;
    private final Process process;
    private final Path logFile;

    private Daemon(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code command} in {@code directory} with standard input from {@code /dev/null} and standard output
     * and error appended to {@code outputFile}.
     *
     * @param name what to call it in messages
     * @param logFile the log its readiness is read from (emptied first; may be {@code outputFile})
     * @throws IllegalStateException if it cannot be started
     */
    static Daemon start(String name, List<String> command, Path directory, Map<String, String> environment,
            Path outputFile, Path logFile) {
        try {
            Files.writeString(logFile, "", StandardCharsets.UTF_8);
            Files.writeString(outputFile, "", StandardCharsets.UTF_8);
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
            builder.environment().putAll(environment);
            return new Daemon(name, builder.start(), logFile);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + name + " (" + String.join(" ", command) + "): "
                    + e.getMessage(), e);
        }
    }

    /** Its process id. */
    long pid() {
        return process.pid();
    }

    /** Whether it still runs. */
    boolean alive() {
        return process.isAlive();
    }

    /** Its log so far, or a note when it cannot be read. */
    String log() {
        try {
            return Files.readString(logFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + logFile + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** The log's last 30 lines, for messages. */
    String logTail() {
        List<String> lines = log().lines().toList();
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        return tail.isEmpty() ? "(empty)" : tail;
    }

    /**
     * Waits until the log satisfies {@code ready}.
     *
     * @param what what readiness means, for the message
     * @throws IllegalStateException if the process exits first, or the timeout passes (with the log's tail)
     */
    void awaitLog(Predicate<String> ready, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.test(log())) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with status " + process.exitValue() + " before "
                        + what + "; end of " + logFile + ":\n" + logTail());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(name + " did not " + what + " within " + timeout.toMillis()
                        + " ms; end of " + logFile + ":\n" + logTail());
            }
            pause();
        }
    }

    /**
     * Stops it and every process it started (SIGTERM to it, up to {@code grace}; then SIGKILL to it and to every
     * descendant, which a fencer's agents may still be, and up to 5 s more). Idempotent.
     */
    void stop(Duration grace) {
        List<ProcessHandle> children = new ArrayList<>(process.descendants().toList());
        if (process.isAlive()) {
            process.destroy();
            await(process.toHandle(), grace);
        }
        children.addAll(process.descendants().toList());
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        await(process.toHandle(), Duration.ofSeconds(5));
        children.forEach(child -> await(child, Duration.ofSeconds(5)));
    }

    @Override
    public String toString() {
        return name + "[pid " + process.pid() + (process.isAlive() ? "" : ", exited") + "]";
    }

    private static void await(ProcessHandle handle, Duration timeout) {
        if (!handle.isAlive()) {
            return;
        }
        try {
            handle.onExit().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // timed out or failed: the caller escalates to SIGKILL or gives up
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a daemon to start", e);
        }
    }
}
