package dev.remedy.simulators.nginx;

import dev.remedy.simulators.PeerPrograms;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Debian's {@code nginx} (package {@code nginx-light}) as one foreground process ({@code daemon off},
 * {@code master_process off}, so its pid is all there is to stop) listening on free TCP ports of 127.0.0.1, with a
 * configuration in a work directory: its pid file, logs ({@link #errorLog()}) and temporary files stay there.
 *
 * <p>The caller writes the contents of the {@code http} block (its {@code server} blocks) for the ports
 * {@link #start} picked; {@link #start} waits at most {@link #START_TIMEOUT} until every port accepts a connection,
 * and tries new ports when one was taken meanwhile. {@link #close()} stops nginx by its pid (SIGTERM, then SIGKILL
 * after 5 s); a JVM shutdown hook does the same should a test forget.
 */
public final class NginxProcess implements AutoCloseable {

    /** How long {@link #start} waits for nginx to listen. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private static final int PORT_ATTEMPTS = 3;
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Process process;
    private final Path directory;
    private final List<Integer> ports;
    private final Thread shutdownHook;

    private NginxProcess(Process process, Path directory, List<Integer> ports) {
        this.process = process;
        this.directory = directory;
        this.ports = ports;
        this.shutdownHook = new Thread(this::stop, "nginx-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts nginx.
     *
     * @param workDir the directory for {@code nginx.conf}, the pid file, logs and temporary files (created if
     *     missing)
     * @param portCount how many free ports of 127.0.0.1 to pick (at least one)
     * @param http the contents of the {@code http} block for the picked ports, in order: {@code server} blocks that
     *     {@code listen 127.0.0.1:<port>} on each of them
     * @throws IllegalStateException if nginx exits or does not listen within {@link #START_TIMEOUT} (the message
     *     holds its error log); in CI, if nginx is missing
     * @throws UncheckedIOException if the work directory cannot be written
     * @throws org.opentest4j.TestAbortedException outside CI, when nginx is missing
     */
    public static NginxProcess start(Path workDir, int portCount, Function<List<Integer>, String> http) {
        Objects.requireNonNull(http, "http");
        if (portCount < 1) {
            throw new IllegalArgumentException("nginx needs at least one port, not " + portCount);
        }
        PeerPrograms.require("nginx", "nginx-light");
        Path directory = workDir.toAbsolutePath().normalize();
        IllegalStateException failure = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            List<Integer> ports = freePorts(portCount);
            NginxProcess nginx = launch(directory, ports, http.apply(ports));
            try {
                nginx.awaitListening();
                return nginx;
            } catch (IllegalStateException e) {
                nginx.close();
                failure = e;
                if (!e.getMessage().contains("Address already in use")) {
                    throw e;
                }
            }
        }
        throw failure;
    }

    private static NginxProcess launch(Path directory, List<Integer> ports, String http) {
        try {
            Files.createDirectories(directory.resolve("logs"));
            Files.createDirectories(directory.resolve("temp"));
            Path config = directory.resolve("nginx.conf");
            Files.writeString(config, String.join("\n",
                    "daemon off;", "master_process off;", "pid " + directory.resolve("nginx.pid") + ";",
                    "error_log " + directory.resolve("logs/error.log") + " info;",
                    "events { worker_connections 64; }",
                    "http {",
                    "  client_body_temp_path " + directory.resolve("temp/body") + ";",
                    "  proxy_temp_path " + directory.resolve("temp/proxy") + ";",
                    "  fastcgi_temp_path " + directory.resolve("temp/fastcgi") + ";",
                    "  scgi_temp_path " + directory.resolve("temp/scgi") + ";",
                    "  uwsgi_temp_path " + directory.resolve("temp/uwsgi") + ";",
                    http,
                    "}", ""), StandardCharsets.UTF_8);
            Files.writeString(directory.resolve("logs/error.log"), "", StandardCharsets.UTF_8);
            String nginx = PeerPrograms.find("nginx").orElseThrow().toString();
            Process process = new ProcessBuilder(nginx, "-p", directory.toString(), "-e",
                    directory.resolve("logs/error.log").toString(), "-c", config.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(directory.resolve("logs/nginx.out").toFile()).start();
            return new NginxProcess(process, directory, List.copyOf(ports));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start nginx in " + directory + ": " + e.getMessage(), e);
        }
    }

    private void awaitListening() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        List<Integer> waiting = new ArrayList<>(ports);
        while (!waiting.isEmpty()) {
            if (listening(waiting.get(0))) {
                waiting.remove(0);
                continue;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("nginx exited with status " + process.exitValue()
                        + " before listening on 127.0.0.1:" + waiting.get(0) + ": " + log());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("nginx did not listen on 127.0.0.1:" + waiting.get(0) + " within "
                        + START_TIMEOUT.toMillis() + " ms: " + log());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for nginx to listen", e);
            }
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static List<Integer> freePorts(int count) {
        List<ServerSocket> probes = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                probes.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return probes.stream().map(ServerSocket::getLocalPort).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no free TCP port on 127.0.0.1: " + e.getMessage(), e);
        } finally {
            for (ServerSocket probe : probes) {
                try {
                    probe.close();
                } catch (IOException ignored) {
                    // the port is free again either way
                }
            }
        }
    }

    /** The ports it listens on, in the order the configuration was given them. */
    public List<Integer> ports() {
        return ports;
    }

    /** Its process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether it still runs. */
    public boolean alive() {
        return process.isAlive();
    }

    /** Its error log (level info: TLS handshake failures and refused client certificates are there). */
    public Path errorLog() {
        return directory.resolve("logs/error.log");
    }

    /** What its error log and standard output say so far, for messages. */
    public String log() {
        try {
            return Files.readString(errorLog(), StandardCharsets.UTF_8)
                    + Files.readString(directory.resolve("logs/nginx.out"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(the logs in " + directory.resolve("logs") + " are unreadable: " + e.getMessage() + ")";
        }
    }

    /** Stops nginx by its pid and waits for it; idempotent. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shutdownInProgress) {
            // called during shutdown: the hook runs or ran anyway
        }
    }

    private void stop() {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
