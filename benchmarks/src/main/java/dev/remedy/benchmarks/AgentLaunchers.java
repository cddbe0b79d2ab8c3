package dev.remedy.benchmarks;

import dev.remedy.simulators.PeerCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the benchmarks of remedy's {@code fence_remedy_<type>} launchers share: writing them with the jar's own
 * {@code fence-agents install} (one-shot or {@code --resident}), starting and stopping the jar's agent server, and
 * timing whole processes (a launcher or a peer) with their options on stdin.
 */
final class AgentLaunchers {

    /** Where the benchmarks look for remedy.jar unless told. */
    static final Path DEFAULT_JAR = Path.of("remedy-cli", "target", "remedy.jar");

    private AgentLaunchers() {
    }

    /** remedy.jar: {@code args[0]} if given, else {@link #DEFAULT_JAR}, absolute. */
    static Path jar(String[] args) {
        return (args.length > 0 ? Path.of(args[0]) : DEFAULT_JAR).toAbsolutePath();
    }

    /**
     * Writes the launchers into {@code directory} with the jar's own install command, resident ones if asked;
     * returns the directory.
     */
    static Path install(Path jar, Path directory, boolean resident) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-jar", jar.toString(), "fence-agents",
                "install", directory.toString()));
        if (resident) {
            command.add("--resident");
        }
        PeerCommand.Result result = new PeerCommand(command, Map.of(), "", Duration.ofSeconds(60)).run();
        if (result.exitCode() != 0) {
            throw new IllegalStateException("remedy fence-agents install failed: " + result.output());
        }
        return directory;
    }

    /**
     * Runs {@code first} once through a resident launcher, which starts the jar's agent server, and waits until the
     * server answers (bounded); returns the milliseconds from the call to the server's first answer.
     */
    static double startServer(PeerCommand first, Path jar) throws IOException, InterruptedException {
        long start = System.nanoTime();
        millis(first, () -> { });
        Path file = serverFile(jar);
        long deadline = start + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no agent server for " + jar + " within 60 s");
            }
            Thread.sleep(10);
        }
        millis(first, () -> { });
        return (System.nanoTime() - start) / 1e6;
    }

    /** Stops the jar's agent server, if the benchmark started one: the process in its server file, if it is one. */
    static void stopServer(Path jar) throws IOException {
        Path file = serverFile(jar);
        if (!Files.exists(file)) {
            return;
        }
        String[] fields = Files.readString(file).trim().split(" ");
        ProcessHandle.of(Long.parseLong(fields[fields.length - 1]))
                .filter(p -> p.info().commandLine().orElse("").contains("fence-agent-server")).ifPresent(server -> {
                    server.destroy();
                    server.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                });
        Files.deleteIfExists(file);
    }

    /** Deletes a benchmark's directory and what it holds. */
    static void delete(Path work) throws IOException {
        try (var paths = Files.walk(work)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** {@code program} with {@code stdin} and no environment of its own, killed after 60 s. */
    static PeerCommand command(Path program, String stdin) {
        return new PeerCommand(List.of(program.toString()), Map.of(), stdin, Duration.ofSeconds(60));
    }

    /** The median milliseconds of {@code runs} runs of {@code command}, {@code before} run ahead of each. */
    static double median(PeerCommand command, int runs, Runnable before) throws InterruptedException {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            values.add(millis(command, before));
        }
        return IpmiPeerBenchmark.median(values);
    }

    /**
     * Runs {@code before}, then {@code command}; returns its milliseconds, process start included.
     *
     * @throws IllegalStateException if the command failed: an exit code other than 0, or 2 with "OFF" in its output
     *     (a status of a target that is off)
     */
    static double millis(PeerCommand command, Runnable before) throws InterruptedException {
        before.run();
        PeerCommand.Result result = command.run();
        boolean off = result.exitCode() == 2 && result.output().contains("OFF");
        if (result.exitCode() != 0 && !off) {
            throw new IllegalStateException(command.command().get(0) + " failed (exit " + result.exitCode() + "): "
                    + result.output());
        }
        return result.nanos() / 1e6;
    }

    /**
     * Prints the ratio remedy / peer of one action, both whole processes, against the launchers' target (at most
     * 1.0: no slower than the peer); NOT MEASURED when a side is missing.
     */
    static void verdict(String pair, String action, double remedy, double peer) {
        double ratio = remedy / peer;
        System.out.printf(Locale.ROOT, "  %s: %s = %.2f (target <= 1.0: %s)%n", action, pair, ratio,
                Double.isNaN(ratio) ? "NOT MEASURED" : ratio <= 1.0 ? "met" : "MISSED");
    }

    private static Path serverFile(Path jar) {
        return Path.of(jar + ".agent-server");
    }
}
