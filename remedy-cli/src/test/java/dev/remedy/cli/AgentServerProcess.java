package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The agent server that resident launchers start for a jar, seen from a test: its server file, its process, and a
 * way to stop it so that no test leaves one running. Only a process whose command line is the agent server's is
 * ever killed, whatever pid the file holds.
 */
final class AgentServerProcess {

    private static final long WAIT_SECONDS = 60;

    private final Path file;

    AgentServerProcess(Path jar) {
        this.file = Path.of(jar + ".agent-server");
    }

    /** The server file. */
    Path file() {
        return file;
    }

    /** Stops the jar's agent server, if one runs, and removes its file. */
    void stop() throws IOException {
        running().flatMap(ProcessHandle::of).ifPresent(server -> {
            server.destroyForcibly();
            server.onExit().orTimeout(WAIT_SECONDS, TimeUnit.SECONDS).join();
        });
        Files.deleteIfExists(file);
    }

    /** Waits (bounded) for a server in the server file; returns its pid. */
    long await() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (running().isEmpty()) {
            assertThat(System.nanoTime()).as("no agent server within %d s", WAIT_SECONDS).isLessThan(deadline);
            Thread.sleep(50);
        }
        return running().orElseThrow();
    }

    /** The pid in the server file, if it is an agent server's. */
    private Optional<Long> running() throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String[] fields = Files.readString(file).trim().split(" ");
        long pid;
        try {
            pid = Long.parseLong(fields[fields.length - 1]);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return commandLine(pid).contains("fence-agent-server") ? Optional.of(pid) : Optional.empty();
    }

    /** {@code /proc/PID/cmdline}, empty once the process is gone. */
    static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }
}
