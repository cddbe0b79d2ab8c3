package dev.remedy.simulators.openssh;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * One {@code sshd -D -e -f sshd_config} child process (not daemonised) with standard output and error in
 * {@code sshd.log}: started on a free port of 127.0.0.1, waited for until it listens, signalled, and stopped with
 * every session it started.
 */
final class SshdProcess {

    private static final int PORT_ATTEMPTS = 3;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int LOG_TAIL_LINES = 30;

    private final String executable;
    private final Path configFile;
    private final Path logFile;
    private final Process process;
    private final int port;

    private SshdProcess(String executable, Path configFile, Path logFile, Process process, int port) {
        this.executable = executable;
        this.configFile = configFile;
        this.logFile = logFile;
        this.process = process;
        this.port = port;
    }

    /**
     * Starts sshd on a free port and waits until it listens there and accepts a TCP connection. The port is found
     * by binding port 0 and closing the socket; should another program take it before sshd binds it ("Address
     * already in use"), another port is tried, three in all.
     *
     * @param executable sshd's absolute path (sshd re-executes itself on SIGHUP and insists on one)
     * @param configFile where to write the configuration
     * @param logFile where sshd logs (emptied first)
     * @param configForPort the configuration's text for a port
     * @param timeout how long to wait for sshd to listen, per attempt
     * @throws IllegalStateException if sshd cannot run, exits, or does not listen in time (with the log's tail)
     */
    static SshdProcess start(String executable, Path configFile, Path logFile, IntFunction<String> configForPort,
            Duration timeout) {
        IllegalStateException portTaken = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            int port = freeTcpPort();
            SshdProcess sshd = launch(executable, configFile, logFile, configForPort.apply(port), port);
            boolean listening = false;
            try {
                listening = sshd.awaitListening(timeout);
                if (listening) {
                    return sshd;
                }
                portTaken = new IllegalStateException("port " + port + " was taken before sshd bound it: "
                        + sshd.logTail());
            } finally {
                if (!listening) {
                    sshd.stop();
                }
            }
        }
        throw new IllegalStateException("sshd found no free port on " + SshdConfig.HOST + " in " + PORT_ATTEMPTS
                + " attempts; last: " + portTaken.getMessage());
    }

    /** The port sshd listens on. */
    int port() {
        return port;
    }

    /** sshd's process id (unchanged when it re-executes itself on SIGHUP). */
    long pid() {
        return process.pid();
    }

    /** Whether sshd still runs. */
    boolean alive() {
        return process.isAlive();
    }

    /** sshd's exit code. */
    int exitValue() {
        return process.exitValue();
    }

    /**
     * Sends SIGHUP: sshd closes its listening socket and re-executes itself, rereading its configuration and host
     * keys, on the same port and pid. Connections attempted in between are refused.
     *
     * @throws IllegalStateException if {@code kill} fails
     */
    void hangUp() {
        Commands.check("signal sshd (pid " + pid() + ") to reread its configuration",
                Commands.of("kill", "-HUP", String.valueOf(pid())));
    }

    /** The log so far, or a note when it cannot be read. */
    String log() {
        try {
            return new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + logFile + " unreadable: " + e.getMessage() + ")";
        }
    }

    /** The log's last 30 lines, for exception messages. */
    String logTail() {
        List<String> lines = log().lines().toList();
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        return tail.isEmpty() ? "(empty)" : tail;
    }

    /**
     * Stops sshd and its sessions (SIGTERM to all, since the per-connection processes outlive the listener; up to
     * 5 s; then SIGKILL and up to 5 s more). Idempotent.
     */
    void stop() {
        List<ProcessHandle> sessions = process.descendants().toList();
        process.destroy();
        sessions.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        waitFor(process.toHandle(), deadline);
        sessions.forEach(session -> waitFor(session, deadline));
        if (process.isAlive() || sessions.stream().anyMatch(ProcessHandle::isAlive)) {
            process.destroyForcibly();
            sessions.forEach(ProcessHandle::destroyForcibly);
            long killDeadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
            waitFor(process.toHandle(), killDeadline);
            sessions.forEach(session -> waitFor(session, killDeadline));
        }
    }

    private static SshdProcess launch(String executable, Path configFile, Path logFile, String config, int port) {
        try {
            Files.writeString(configFile, config, StandardCharsets.US_ASCII);
            Files.writeString(logFile, "", StandardCharsets.UTF_8);
            Process process = new ProcessBuilder(executable, "-D", "-e", "-f", configFile.toString())
                    .directory(configFile.getParent().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            return new SshdProcess(executable, configFile, logFile, process, port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + executable + " -D -e -f " + configFile + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Waits until the log says sshd listens on the port and a TCP connection succeeds.
     *
     * @return false if sshd exited because the port was taken
     * @throws IllegalStateException if sshd exits for another reason or does not listen in time
     */
    private boolean awaitListening(Duration timeout) {
        String listening = "Server listening on " + SshdConfig.HOST + " port " + port + ".";
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                if (log().contains("Address already in use")) {
                    return false;
                }
                throw new IllegalStateException("sshd exited with status " + process.exitValue() + " before "
                        + "listening on " + SshdConfig.HOST + ":" + port + "; end of " + logFile + ":\n" + logTail()
                        + "\n(check the configuration with: " + executable + " -t -f " + configFile + ")");
            }
            if (log().contains(listening) && accepts()) {
                return true;
            }
            pause(50);
        }
        throw new IllegalStateException("sshd did not accept connections on " + SshdConfig.HOST + ":" + port
                + " within " + timeout.toSeconds() + " s; end of " + logFile + ":\n" + logTail());
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(SshdConfig.HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void waitFor(ProcessHandle handle, long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !handle.isAlive()) {
            return;
        }
        try {
            handle.onExit().get(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // timed out or failed: the caller escalates to SIGKILL
        }
    }

    private static int freeTcpPort() {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getByName(SshdConfig.HOST), 0));
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free TCP port on " + SshdConfig.HOST, e);
        }
    }

    /** Sleeps a little between polls. */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for sshd", e);
        }
    }
}
