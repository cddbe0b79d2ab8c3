package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.FenceContext;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one agent process, bounded: its only argument is its own path (the options go to its standard input, never
 * to its command line), its environment is {@code AgentEnvironment}'s, it runs in a process group of its own
 * ({@code setsid} from util-linux), and at the context's deadline, on an interrupt, and after it exits (children it
 * left behind) the whole group is killed. Its standard output and error are read on threads of their own and capped.
 * Thread-safe: each run is independent.
 */
public final class AgentRunner {

    /** The most bytes kept of an agent's standard output, and of its standard error. */
    public static final int OUTPUT_CAP = 64 * 1024;

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final Duration DRAIN_WAIT = Duration.ofSeconds(2);
    private static final Duration KILL_WAIT = Duration.ofSeconds(2);
    private static final List<Path> BIN = List.of(Path.of("/usr/bin"), Path.of("/bin"), Path.of("/usr/sbin"),
            Path.of("/sbin"));

    private final Optional<Path> setsid;
    private final Optional<Path> kill;
    private final Map<String, String> environment;

    AgentRunner(Optional<Path> setsid, Optional<Path> kill, Map<String, String> environment) {
        this.setsid = setsid;
        this.kill = kill;
        this.environment = Map.copyOf(environment);
    }

    /** A runner with this machine's {@code setsid} and {@code kill} and the environment of this JVM, filtered. */
    public static AgentRunner system() {
        return new AgentRunner(find("setsid"), find("kill"), AgentEnvironment.filter(System.getenv()));
    }

    /**
     * How a run ended.
     *
     * @param timedOut  whether the deadline passed and the process group was killed
     * @param exitCode  the agent's exit code; -1 if it timed out
     * @param stdout    its standard output, at most {@code stdoutCap} bytes of it
     * @param stderr    the lines of its standard error that were kept
     * @param truncated whether standard output passed its cap
     */
    public record Result(boolean timedOut, int exitCode, byte[] stdout, List<String> stderr, boolean truncated) {

        /** Copies the lines. */
        public Result {
            stderr = List.copyOf(stderr);
        }

        /** Standard output as UTF-8 text. */
        public String stdoutText() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    /**
     * Runs {@code executable} with {@code input} on its standard input until it exits or {@code context}'s deadline.
     *
     * @param stdoutCap  the most bytes of standard output kept
     * @param stderrLine receives each line of standard error, on the calling thread, while the agent runs
     * @throws IOException          if the agent cannot be started ({@code setsid} missing, not executable)
     * @throws InterruptedException if the thread is interrupted; the process group is killed first
     */
    public Result run(Path executable, String input, FenceContext context, int stdoutCap, Consumer<String> stderrLine)
            throws IOException, InterruptedException {
        context.checkInterrupted();
        Path launcher = setsid.orElseThrow(() -> new IOException("setsid (util-linux) is not installed: remedy runs "
                + "every ClusterLabs agent in a process group of its own so that it can stop it whole; install "
                + "util-linux"));
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--wait", executable.toString())
                .directory(new File("/"));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        String name = executable.getFileName().toString();
        OutputReader out = OutputReader.start(process.getInputStream(), stdoutCap, "standard output",
                name + "-stdout");
        OutputReader err = OutputReader.start(process.getErrorStream(), OUTPUT_CAP, "standard error",
                name + "-stderr");
        feed(process.getOutputStream(), input, name + "-stdin");
        boolean exited = false;
        try {
            while (true) {
                err.drainTo(stderrLine);
                if (!process.isAlive()) {
                    exited = true;
                    break;
                }
                Duration left = context.remaining();
                if (left.isZero()) {
                    break;
                }
                process.waitFor(Math.min(left.toNanos(), POLL_NANOS), TimeUnit.NANOSECONDS);
            }
        } finally {
            killGroup(process);
        }
        out.await(DRAIN_WAIT);
        err.await(DRAIN_WAIT);
        err.drainTo(stderrLine);
        return new Result(!exited, exited ? process.exitValue() : -1, out.bytes(), err.lines(), out.truncated());
    }

    /**
     * Kills the agent's process group (the agent is its leader: {@code setsid} made it one), and the agent and its
     * descendants one by one too, in case one left the group. After the agent exited this kills what it left
     * behind, which would otherwise hold its output open.
     */
    private void killGroup(Process process) throws InterruptedException {
        List<ProcessHandle> family = process.descendants().toList();
        if (kill.isPresent()) {
            Process killer;
            try {
                killer = new ProcessBuilder(kill.get().toString(), "-s", "KILL", "--", "-" + process.pid())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (!killer.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    killer.destroyForcibly();
                }
            } catch (IOException e) {
                // kill could not start: the one-by-one kill below still stops the agent and its children
            }
        }
        family.forEach(ProcessHandle::destroyForcibly);
        // Process.destroyForcibly also closes the streams: only for an agent still running, or its output is lost
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void feed(OutputStream stdin, String input, String threadName) {
        Thread writer = new Thread(() -> {
            try (stdin) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the agent exited or closed its input before reading everything: its exit code tells what happened
            }
        }, threadName);
        writer.setDaemon(true);
        writer.start();
    }

    private static Optional<Path> find(String program) {
        return BIN.stream().map(dir -> dir.resolve(program)).filter(Files::isExecutable).findFirst();
    }
}
