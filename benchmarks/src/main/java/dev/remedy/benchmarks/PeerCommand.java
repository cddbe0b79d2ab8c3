package dev.remedy.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a peer's command line (ipmitool, fence_ipmilan) with a bounded wait, secrets passed by environment or
 * standard input only, and returns its exit code and output.
 */
record PeerCommand(List<String> command, Map<String, String> environment, String stdin, Duration timeout) {

    /** The result of one run. */
    record Result(int exitCode, String output, long nanos) {
    }

    /** Whether {@code program} is on the PATH. */
    static boolean installed(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && new java.io.File(dir, program).canExecute()) {
                return true;
            }
        }
        return false;
    }

    /** Runs the command once; a run past the timeout is killed and reported with exit code -1. */
    Result run() {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        long start = System.nanoTime();
        try {
            Process process = builder.start();
            try (var in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                return new Result(-1, "timed out after " + timeout.toSeconds() + " s", System.nanoTime() - start);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return new Result(process.exitValue(), output, System.nanoTime() - start);
        } catch (IOException e) {
            return new Result(-1, "could not run " + command.get(0) + ": " + e.getMessage(), System.nanoTime() - start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted", System.nanoTime() - start);
        }
    }
}
