package dev.remedy.simulators;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One run of a peer's command line (ipmitool, fence_redfish, redfishtool…) for ITs and benchmarks, with a bounded
 * wait. Secrets belong in {@code environment} or {@code stdin}, never in {@code command}, where {@code ps} would
 * show them. Output and error are merged into one text.
 *
 * @param command the program and its arguments
 * @param environment variables added to the inherited environment
 * @param stdin what the program reads on standard input (empty for none)
 * @param timeout how long to wait before the program is killed
 */
public record PeerCommand(List<String> command, Map<String, String> environment, String stdin, Duration timeout) {

    /**
     * How one run ended.
     *
     * @param exitCode the program's exit code, or {@code -1} when it was killed at the timeout
     * @param output standard output and error, stripped
     * @param nanos how long the run took, process start included
     */
    public record Result(int exitCode, String output, long nanos) {

        /** Whether the program was killed at the timeout. */
        public boolean timedOut() {
            return exitCode == -1;
        }
    }

    /** Copies the lists and checks that the command names a program and the timeout is positive. */
    public PeerCommand {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
        Objects.requireNonNull(stdin, "stdin");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command must name a program");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
    }

    /** A command with no environment or input of its own. */
    public static PeerCommand of(Duration timeout, String... command) {
        return new PeerCommand(List.of(command), Map.of(), "", timeout);
    }

    /**
     * Runs the command once and waits for it; past the timeout it is killed and the result has exit code -1.
     *
     * @throws UncheckedIOException if the program cannot be started
     * @throws InterruptedException if interrupted while waiting (the program is killed)
     */
    public Result run() throws InterruptedException {
        Path output = null;
        try {
            output = Files.createTempFile("remedy-peer", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            if (stdin.isEmpty()) {
                builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            }
            builder.environment().putAll(environment);
            long start = System.nanoTime();
            Process process = builder.start();
            try {
                if (!stdin.isEmpty()) {
                    try (OutputStream in = process.getOutputStream()) {
                        in.write(stdin.getBytes(StandardCharsets.UTF_8));
                    }
                }
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    kill(process);
                    return new Result(-1, command.get(0) + " did not finish within " + timeout.toMillis() + " ms",
                            System.nanoTime() - start);
                }
            } catch (InterruptedException e) {
                kill(process);
                throw e;
            }
            long nanos = System.nanoTime() - start;
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8).strip(), nanos);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command.get(0) + ": " + e.getMessage(), e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // a leftover temporary file is harmless
                }
            }
        }
    }

    private static void kill(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
}
