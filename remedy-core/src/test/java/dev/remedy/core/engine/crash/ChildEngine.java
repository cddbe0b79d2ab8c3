package dev.remedy.core.engine.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One {@link CrashCampaignEngine} process, as the campaign test drives it: started with the test's class path and
 * stdin closed, its stdout and stderr in files, killed with SIGKILL. Closing it kills the process if it still runs.
 * Driven by one test thread; not thread-safe.
 */
final class ChildEngine implements AutoCloseable {

    /** The header line java.util.logging's simple formatter writes before each record's level and message. */
    private static final Pattern LOG_HEADER = Pattern.compile("^[A-Z][a-z]{2} \\d{1,2}, \\d{4} \\d{1,2}:\\d{2}:\\d{2} [AP]M ");

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final Duration POLL = Duration.ofMillis(10);
    private static final Duration REAP = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final long startedNanos;
    private final Path out;
    private final Path err;
    private boolean running;

    private ChildEngine(String name, Process process, long startedNanos, Path out, Path err) {
        this.name = name;
        this.process = process;
        this.startedNanos = startedNanos;
        this.out = out;
        this.err = err;
    }

    /** Starts an engine process on {@code lab}; its output goes to {@code logs/<name>.out} and {@code .err}. */
    static ChildEngine start(Path lab, Path logs, String name, int nodes, int concurrent) throws IOException {
        Files.createDirectories(logs);
        Path out = logs.resolve(name + ".out");
        Path err = logs.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(JAVA.toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), CrashCampaignEngine.class.getName(),
                lab.toString(), String.valueOf(nodes), String.valueOf(concurrent))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("_JAVA_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        long started = System.nanoTime();
        Process process = builder.start();
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            process.destroyForcibly();
            throw e;
        }
        return new ChildEngine(name, process, started, out, err);
    }

    /** The process id. */
    long pid() {
        return process.pid();
    }

    /** Time since the process was started. */
    Duration age() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /**
     * Waits until the engine has started (printed {@link CrashCampaignEngine#RUNNING}); false if the process ended
     * or {@code timeout} passed first.
     */
    boolean awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (running()) {
                return true;
            }
            if (!process.isAlive()) {
                return running();
            }
            Thread.sleep(POLL.toMillis());
        }
        return false;
    }

    /** Whether the engine has printed {@link CrashCampaignEngine#RUNNING}. */
    boolean running() {
        running = running || read(out).lines().anyMatch(line -> line.startsWith(CrashCampaignEngine.RUNNING + ":"));
        return running;
    }

    /** The exit code, once the process ended within {@code timeout}. */
    Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS) ? Optional.of(process.exitValue())
                : Optional.empty();
    }

    /** Whether the process still runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process with SIGKILL and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(REAP.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException(name + " (pid " + pid() + ") still runs " + REAP + " after SIGKILL");
        }
    }

    /** What the process wrote to stderr. */
    String stderr() {
        return read(err);
    }

    /**
     * The stderr lines other than SLF4J's notices and log records at INFO (java.util.logging writes a header line,
     * then "INFO: message"; a restart after a kill logs, for one, that it removes the temp file of a torn save).
     */
    List<String> unexpectedStderr() {
        List<String> all = stderr().lines().filter(line -> !line.isBlank() && !line.startsWith("SLF4J")).toList();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i + 1 < all.size() && LOG_HEADER.matcher(all.get(i)).find() && all.get(i + 1).startsWith("INFO: ")) {
                i++;
            } else {
                lines.add(all.get(i));
            }
        }
        return lines;
    }

    /** The process, its exit and the end of its output, for failure messages. */
    String describe() {
        String exit = process.isAlive() ? "running" : "exit " + process.exitValue();
        return name + " (pid " + pid() + ", " + exit + ")\n--- end of stdout\n" + tail(read(out))
                + "\n--- stderr\n" + tail(stderr());
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file + ": " + e, e);
        }
    }
}
