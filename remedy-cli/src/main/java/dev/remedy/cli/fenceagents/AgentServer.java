package dev.remedy.cli.fenceagents;

import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.BufferedReader;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The resident agent server of launchers installed with {@code remedy fence-agents install --resident}: one JVM per
 * remedy.jar that stays up between fence actions, so that a launcher's call costs a loopback connection instead of
 * a JVM start (Pacemaker starts an agent process per operation, and monitors every device each minute). The
 * launcher's one-shot path stays: a launcher that finds no server, or one it cannot trust, runs the call in a JVM
 * of its own, and starts a server for the calls after it.
 *
 * <p>It listens on 127.0.0.1 only and says where in {@link ServerFile} (its owner only). A connection is answered
 * with {@code hello ID}; the caller then sends a {@link ServerRequest} with the token, and gets the call's output
 * ({@link FramedOutput}) and {@code exit CODE}. A caller without the token gets {@code refused}. It runs at most
 * {@value #MAX_CALLS} calls at once ({@code busy} beyond, and the launcher runs that call itself). It stops after
 * {@code --idle} without a call, and as soon as its jar changes ({@code stale}); a call under way always runs to its
 * end, within the action's own deadline, even when Pacemaker killed the launcher that asked for it.
 */
public final class AgentServer implements AutoCloseable {

    /** The hidden command of {@code remedy} that a launcher starts: {@code fence-agent-server --jar J --idle S}. */
    public static final String COMMAND = "fence-agent-server";
    /** How long a server stays without a call, by default. */
    static final Duration DEFAULT_IDLE = Duration.ofMinutes(10);
    static final int MAX_CALLS = 16;
    /** How long a caller has to send its request. */
    private static final int REQUEST_MILLIS = 10_000;
    /** How often the server looks at its jar and its idle time. */
    private static final int CHECK_MILLIS = 1_000;
    /** How long a stopping server waits for the calls under way (each bounded by its action's deadline). */
    private static final Duration DRAIN = Duration.ofMinutes(15);

    private final Path jar;
    private final FileTime jarTime;
    private final Path file;
    private final ServerFile address;
    private final ServerSocket socket;
    private final Function<String, FenceAgentRegistry> registries;
    private final TimeSource time;
    private final Duration idle;
    private final ThreadPoolExecutor calls;
    private final Map<String, FenceAgentRegistry> loaded = new ConcurrentHashMap<>();
    private volatile long lastCall;
    private volatile boolean stopping;
    private boolean closed;

    private AgentServer(Path jar, ServerSocket socket, Function<String, FenceAgentRegistry> registries,
                        TimeSource time, Duration idle, int maxCalls) throws IOException {
        this.jar = jar;
        this.jarTime = Files.getLastModifiedTime(jar);
        this.file = ServerFile.of(jar);
        this.socket = socket;
        this.registries = registries;
        this.time = time;
        this.idle = idle;
        this.lastCall = time.nanoTime();
        SecureRandom random = new SecureRandom();
        this.address = new ServerFile(socket.getLocalPort(), secret(random), secret(random),
                ProcessHandle.current().pid());
        this.calls = new ThreadPoolExecutor(0, maxCalls, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "fence-agent-call");
            thread.setDaemon(true);
            return thread;
        });
        address.write(file);
    }

    /**
     * Runs {@code remedy fence-agent-server --jar JAR [--idle SECONDS]} until it stops; returns the exit code. A
     * second server for the same jar finds the first one's lock and returns 0 at once.
     */
    public static int main(List<String> args, Function<String, FenceAgentRegistry> registries, TimeSource time,
                           PrintWriter err) {
        Optional<Path> jar = option(args, "--jar").map(Path::of);
        Duration idle;
        try {
            idle = option(args, "--idle").map(s -> Duration.ofSeconds(Long.parseLong(s))).orElse(DEFAULT_IDLE);
        } catch (NumberFormatException e) {
            idle = null;
        }
        if (jar.isEmpty() || !Files.isRegularFile(jar.get()) || idle == null || idle.isNegative()) {
            err.println("remedy " + COMMAND + ": expected --jar PATH-OF-REMEDY.JAR [--idle SECONDS]; the fence_remedy_*"
                    + " launchers that 'remedy fence-agents install --resident' writes start this command");
            err.flush();
            return FenceAgentProtocol.FAILED;
        }
        Path lockFile = jar.get().resolveSibling(jar.get().getFileName() + ".agent-server.lock");
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = lockOrNull(channel)) {
            if (lock == null) {
                return FenceAgentProtocol.OK;
            }
            try (AgentServer server = start(jar.get(), registries, time, idle, MAX_CALLS)) {
                server.serve();
            }
            return FenceAgentProtocol.OK;
        } catch (IOException e) {
            err.println("remedy " + COMMAND + ": " + e.getMessage());
            err.flush();
            return FenceAgentProtocol.FAILED;
        }
    }

    /** The server lock, or null when another server (in this JVM or another) holds it. */
    private static FileLock lockOrNull(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /**
     * A server for {@code jar}, listening and announced in its {@link ServerFile}, that runs at most
     * {@code maxCalls} calls at once; {@link #serve()} answers.
     */
    static AgentServer start(Path jar, Function<String, FenceAgentRegistry> registries, TimeSource time,
                             Duration idle, int maxCalls) throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), maxCalls);
            socket.setSoTimeout(CHECK_MILLIS);
            return new AgentServer(jar, socket, registries, time, idle, maxCalls);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Where it listens, its id and token. */
    ServerFile address() {
        return address;
    }

    /** Answers connections until it is idle too long, its jar changes, or {@link #close()}; then closes. */
    void serve() {
        try {
            accept();
        } finally {
            close();
        }
    }

    private void accept() {
        while (!stopping) {
            Socket connection;
            try {
                connection = socket.accept();
            } catch (SocketTimeoutException e) {
                if (stale() || (calls.getActiveCount() == 0 && time.nanoTime() - lastCall > idle.toNanos())) {
                    stopping = true;
                }
                continue;
            } catch (IOException e) {
                stopping = true;
                continue;
            }
            lastCall = time.nanoTime();
            if (stale()) {
                refuse(connection, "stale");
                stopping = true;
                continue;
            }
            try {
                calls.execute(() -> answer(connection));
            } catch (RejectedExecutionException e) {
                refuse(connection, "busy");
            }
        }
    }

    /** Stops answering, waits for the calls under way, removes its server file and closes its agents. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing a listening socket does not fail in a way that matters here
        }
        try {
            if (ServerFile.read(file).filter(address::equals).isPresent()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // a launcher that reads a file of a server that is gone falls back to running the call itself
        }
        calls.shutdown();
        try {
            calls.awaitTermination(DRAIN.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loaded.values().forEach(FenceAgentRegistry::closeProviders);
    }

    /** Whether the jar changed since the server started: its calls would run old code. */
    private boolean stale() {
        try {
            return !Files.getLastModifiedTime(jar).equals(jarTime);
        } catch (IOException e) {
            return true;
        }
    }

    private static void refuse(Socket connection, String word) {
        try (connection; OutputStream out = connection.getOutputStream()) {
            out.write((word + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            // the caller runs the call itself when it does not read hello
        }
    }

    /** Answers one connection: hello, the request, the call's output and exit code. */
    private void answer(Socket connection) {
        try (connection) {
            connection.setSoTimeout(REQUEST_MILLIS);
            OutputStream out = new BufferedOutputStream(connection.getOutputStream());
            out.write(("hello " + address.id() + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ServerRequest request = ServerRequest.read(new BufferedReader(
                    new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8)));
            if (!MessageDigest.isEqual(request.token().getBytes(StandardCharsets.UTF_8),
                    address.token().getBytes(StandardCharsets.UTF_8))) {
                out.write("refused\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return;
            }
            connection.setSoTimeout(0);
            FramedOutput frames = new FramedOutput(out);
            int code;
            try (PrintWriter stdout = new PrintWriter(frames.stream("out"));
                 PrintWriter stderr = new PrintWriter(frames.stream("err"))) {
                code = call(request, stdout, stderr);
            }
            lastCall = time.nanoTime();
            frames.exit(code);
        } catch (IOException e) {
            // a caller that went away or sent no request: nothing was run for it
        }
    }

    private int call(ServerRequest request, PrintWriter stdout, PrintWriter stderr) {
        List<String> args = new ArrayList<>(List.of("--type", request.type(), "--"));
        args.addAll(request.args());
        FenceAgentRegistry registry = loaded.computeIfAbsent(request.type(), registries);
        try {
            return new FenceAgentProtocol(registry, time, stdout, stderr).main(args,
                    new StringReader(request.stdin()));
        } catch (InterruptedException e) {
            stderr.println(Launchers.name(request.type()) + ": Failed: the agent server stopped during the action;"
                    + " its outcome is unknown");
            Thread.currentThread().interrupt();
            return FenceAgentProtocol.FAILED;
        }
    }

    /** 128 random bits in hex. */
    private static String secret(SecureRandom random) {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static Optional<String> option(List<String> args, String name) {
        int at = args.indexOf(name);
        return at >= 0 && at + 1 < args.size() ? Optional.of(args.get(at + 1)) : Optional.empty();
    }
}
