package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Pacemaker's own fencer, {@code pacemaker-fenced} (Debian package {@code pacemaker}), as a child process for
 * integration tests of fence agents that Pacemaker runs: devices are registered, levels declared and nodes fenced
 * with {@code stonith_admin} (package {@code pacemaker-cli-utils}), and the fencer's history is read back.
 *
 * <p>The fencer runs as a one-node cluster: {@link #start} writes a {@code corosync.conf} for a ring of one node,
 * {@value #NODE_NAME}, on a free UDP port of 127.0.0.1, runs {@code corosync -f} and then
 * {@code pacemaker-fenced -c} (cluster mode without a CIB), each logging into the work directory. Stand-alone mode
 * ({@code pacemaker-fenced -s}) fences too but records no history: there, a fence request runs the agent directly
 * instead of as a fencing operation, and {@code stonith_admin --history} answers "0 events found" even after a
 * node was fenced. Pacemaker 2.1 runs agents from {@link #AGENT_DIRECTORY} only, without arguments: every option
 * (secrets included, Pacemaker's {@code pcmk_*} ones left out) goes on standard input as {@code name=value} lines,
 * with {@code action=off|on|reboot}, {@code nodename=<target>} and {@code port=<plug>} (the {@code pcmk_host_map}
 * value, else the target's name); at registration it asks for {@code action=metadata} the same way.
 *
 * <p>Both programs serve fixed IPC names (abstract Unix sockets {@code @stonith-ng}, {@code @cpg}…): one instance per
 * machine (network namespace). {@link #start} refuses to start beside a running cluster or fencer. {@link #close()}
 * (and a JVM shutdown hook, should a test forget) stops the fencer, any agent it still runs, and corosync.
 *
 * <p>Not thread-safe to start or close concurrently with other calls; the other methods may be called from any
 * thread.
 */
public final class PacemakerFencer implements AutoCloseable {

    /** The fencer's own node: never fence it (that is the machine the tests run on). */
    public static final String NODE_NAME = "fencer-node";
    /**
     * Where the fencer looks for agents: Pacemaker 2.1 runs {@code /usr/sbin/<agent>} and nothing else, so an agent
     * under test (a {@code fence_remedy_<type>} launcher) must be installed here before it is registered.
     */
    public static final Path AGENT_DIRECTORY = Path.of("/usr/sbin");
    /** How long {@link #start} waits for corosync and then for the fencer. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    /** How long a {@code stonith_admin} call other than a fence may take. */
    public static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private static final List<Path> FENCED = List.of(Path.of("/usr/lib/pacemaker/pacemaker-fenced"),
            Path.of("/usr/libexec/pacemaker/pacemaker-fenced"));
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final int PORT_ATTEMPTS = 3;
    private static final Pattern SAFE_PATH = CorosyncConfig.SAFE_PATH;

    private final Path workDir;
    private final String stonithAdmin;
    private final Thread shutdownHook;
    private volatile Daemon corosync;
    private volatile Daemon fenced;
    private boolean closed;

    private PacemakerFencer(Path workDir, String stonithAdmin) {
        this.workDir = workDir;
        this.stonithAdmin = stonithAdmin;
        this.shutdownHook = new Thread(this::closeQuietly, "pacemaker-fencer-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Skips the calling test unless this machine can run the fencer: root, and corosync, {@code stonith_admin} and
     * {@code pacemaker-fenced} installed. In CI (environment variable {@code CI=true}) it fails instead, so CI can
     * never pass by skipping, like {@link PeerPrograms#require}.
     *
     * @throws IllegalStateException in CI, when something is missing
     */
    public static void require() {
        requireThat(isRoot(), "pacemaker-fenced and corosync must run as root; run the test as root, as CI does");
        PeerPrograms.require("corosync", "corosync");
        PeerPrograms.require("stonith_admin", "pacemaker-cli-utils");
        requireThat(fencedExecutable().isPresent(), "pacemaker-fenced is not installed (looked for " + FENCED
                + "): apt-get install -y pacemaker");
    }

    /**
     * Starts corosync and the fencer, with no device registered, and waits (at most {@link #START_TIMEOUT} each)
     * until corosync provides service and the fencer has joined its group and answers {@code stonith_admin}.
     *
     * @param workDir a directory for the configuration, state and logs (created if missing); its path may only hold
     *     letters, digits and {@code ._/+,:@=-}
     * @throws org.opentest4j.TestAbortedException outside CI, when {@link #require()} does not hold
     * @throws IllegalStateException if something is missing in CI, another fencer or corosync runs on this machine,
     *     or a program exits or is not ready in time (the message holds the end of its log); what was started is
     *     stopped first
     * @throws IllegalArgumentException if the work directory's path breaks the rule above
     * @throws UncheckedIOException if the work directory cannot be written
     */
    public static PacemakerFencer start(Path workDir) {
        Objects.requireNonNull(workDir, "workDir");
        require();
        Path directory = workDir.toAbsolutePath().normalize();
        if (!SAFE_PATH.matcher(directory.toString()).matches()) {
            throw new IllegalArgumentException("work directory " + directory + " must only hold letters, digits and "
                    + "._/+,:@=- (corosync.conf takes it unquoted); use another directory");
        }
        List<String> taken = LocalIpc.taken(procNetUnix(), LocalIpc.NAMES);
        if (!taken.isEmpty()) {
            throw new IllegalStateException("another corosync or pacemaker-fenced already runs on this machine "
                    + "(IPC names taken: " + taken + "); only one can run per machine: stop it (for example "
                    + "systemctl stop pacemaker corosync, or the test that started it) and run again");
        }
        try {
            Files.createDirectories(directory.resolve("corosync"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the fencer's work directory " + directory, e);
        }
        String admin = PeerPrograms.find("stonith_admin").orElseThrow().toString();
        PacemakerFencer fencer = new PacemakerFencer(directory, admin);
        boolean started = false;
        try {
            fencer.launch();
            started = true;
            return fencer;
        } finally {
            if (!started) {
                fencer.closeQuietly();
            }
        }
    }

    /** The fencer's own node, {@value #NODE_NAME}. */
    public String nodeName() {
        return NODE_NAME;
    }

    /**
     * Registers a device ({@code stonith_admin --register}); the fencer reads the agent's metadata first.
     *
     * @throws IllegalStateException if the fencer refuses it (unknown agent, bad option…), with stonith_admin's
     *     answer and the end of the fencer's log
     */
    public void register(FenceDevice device) {
        Objects.requireNonNull(device, "device");
        check("register " + device, admin(ADMIN_TIMEOUT, device.registerEnvironment(), device.registerArguments()));
    }

    /**
     * Declares fencing level {@code index} of {@code target}: the devices, all of which must succeed for the level
     * to succeed. The fencer tries levels in ascending order until one succeeds.
     *
     * @param index 1 to 9
     * @throws IllegalArgumentException if the index is out of range or no device is given
     * @throws IllegalStateException if the fencer refuses the level
     */
    public void registerLevel(String target, int index, List<String> deviceIds) {
        Objects.requireNonNull(target, "target");
        if (index < 1 || index > 9) {
            throw new IllegalArgumentException("fencing level " + index + " of " + target + " must be 1 to 9");
        }
        if (deviceIds.isEmpty()) {
            throw new IllegalArgumentException("fencing level " + index + " of " + target + " needs a device");
        }
        List<String> arguments = new ArrayList<>(List.of("--register-level", target, "--index",
                String.valueOf(index)));
        deviceIds.forEach(id -> arguments.addAll(List.of("--device", id)));
        check("register level " + index + " of " + target + " with " + deviceIds,
                admin(ADMIN_TIMEOUT, Map.of(), arguments));
    }

    /**
     * Fences {@code target} off ({@code stonith_admin --fence TARGET --timeout SECONDS}) and waits for the answer.
     * The fencer gives each device the timeout (its {@code pcmk_off_timeout} when set), times 1.2 as it computes.
     *
     * @param timeout the operation's timeout, rounded up to whole seconds
     * @return how stonith_admin ended, with the command lines of the agents the fencer ran meanwhile; a failure is
     *     a result, not an exception
     */
    public FenceResult fence(String target, Duration timeout) {
        Objects.requireNonNull(target, "target");
        long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
        Duration cap = Duration.ofSeconds(seconds * 4 + 30);
        try (ProcessWatch watch = ProcessWatch.start(pid())) {
            PeerCommand.Result result = admin(cap, Map.of(),
                    List.of("--fence", target, "--timeout", String.valueOf(seconds)));
            watch.close();
            return new FenceResult(result.exitCode(), result.output(), Duration.ofNanos(result.nanos()),
                    watch.commandLines());
        }
    }

    /**
     * Every operation on {@code target} the fencer remembers, successful, failed and pending, newest first
     * ({@code stonith_admin --history TARGET --verbose --output-as xml}; without {@code --verbose} it shows only the
     * last success).
     *
     * @throws IllegalStateException if stonith_admin fails or prints something else than a history
     */
    public List<FenceEvent> history(String target) {
        Objects.requireNonNull(target, "target");
        PeerCommand.Result result = check("read the history of " + target, admin(ADMIN_TIMEOUT, Map.of(),
                List.of("--history", target, "--verbose", "--output-as", "xml")));
        try {
            return HistoryXml.parse(result.output());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Every agent run the fencer's log records so far, oldest first: which device ran for which node, and how. */
    public List<AgentRun> agentRuns() {
        return AgentRun.parse(log());
    }

    /** The fencer's log so far (it names each agent run, its exit code and its standard error). */
    public String log() {
        Daemon current = fenced;
        return current == null ? "" : current.log();
    }

    /** The fencer's log file. */
    public Path logFile() {
        return workDir.resolve("pacemaker-fenced.log");
    }

    /** corosync's log file. */
    public Path corosyncLogFile() {
        return workDir.resolve("corosync").resolve("corosync.log");
    }

    /** The work directory. */
    public Path workDir() {
        return workDir;
    }

    /** The fencer's process id. */
    public long pid() {
        Daemon current = fenced;
        if (current == null) {
            throw new IllegalStateException("the fencer has not started");
        }
        return current.pid();
    }

    /** Whether the fencer and corosync both still run. */
    public boolean alive() {
        Daemon fencer = fenced;
        Daemon ring = corosync;
        return fencer != null && fencer.alive() && ring != null && ring.alive();
    }

    /**
     * Stops the fencer and any agent it still runs (SIGTERM, up to 5 s, then SIGKILL), then corosync likewise.
     * Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            Daemon fencer = fenced;
            if (fencer != null) {
                fencer.stop(STOP_GRACE);
            }
            Daemon ring = corosync;
            if (ring != null) {
                ring.stop(STOP_GRACE);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shutdownInProgress) {
                // called from the hook itself, or during shutdown: nothing to remove
            }
        }
    }

    @Override
    public String toString() {
        return "PacemakerFencer[" + NODE_NAME + ", corosync " + corosync + ", fencer " + fenced + "]";
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            // nothing more can be done while shutting down; the processes got SIGKILL
        }
    }

    private void launch() {
        Path ring = workDir.resolve("corosync");
        Path config = ring.resolve("corosync.conf");
        String executable = PeerPrograms.find("corosync").orElseThrow().toString();
        IllegalStateException lastFailure = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            write(config, CorosyncConfig.text(NODE_NAME, freeUdpPort(), ring));
            Daemon candidate = track(Daemon.start("corosync", List.of(executable, "-f", "-c", config.toString()),
                    ring, Map.of(), ring.resolve("corosync.out"), corosyncLogFile()), true);
            try {
                candidate.awaitLog(log -> log.contains("ready to provide service"), "provide service",
                        START_TIMEOUT);
                lastFailure = null;
                break;
            } catch (IllegalStateException e) {
                candidate.stop(STOP_GRACE);
                lastFailure = e;
            }
        }
        if (lastFailure != null) {
            throw lastFailure;
        }
        Path log = logFile();
        // The log file by -l only: with PCMK_logfile naming it too, the fencer writes every line twice.
        Daemon fencer = track(Daemon.start("pacemaker-fenced", List.of(fencedExecutable().orElseThrow().toString(),
                "-c", "-l", log.toString()), workDir, Map.of("PCMK_logfacility", "none"),
                workDir.resolve("pacemaker-fenced.out"), log), false);
        String member = "(node 1 pid " + fencer.pid() + ") is member";
        fencer.awaitLog(text -> text.contains(member), "join corosync's stonith-ng group", START_TIMEOUT);
        awaitAnswers();
    }

    /** Keeps a daemon just started for {@link #close()} to stop; stops it at once if close() came first. */
    private Daemon track(Daemon daemon, boolean ring) {
        synchronized (this) {
            if (!closed) {
                if (ring) {
                    corosync = daemon;
                } else {
                    fenced = daemon;
                }
                return daemon;
            }
        }
        daemon.stop(STOP_GRACE);
        throw new IllegalStateException("the fencer was closed (JVM shutdown?) while it started");
    }

    /** Waits until {@code stonith_admin --list-registered} succeeds. */
    private void awaitAnswers() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        PeerCommand.Result last;
        do {
            last = admin(Duration.ofSeconds(5), Map.of(), List.of("--list-registered"));
            if (last.exitCode() == 0) {
                return;
            }
            pause();
        } while (System.nanoTime() - deadline < 0 && fenced.alive());
        throw new IllegalStateException("pacemaker-fenced did not answer stonith_admin --list-registered within "
                + START_TIMEOUT.toSeconds() + " s (last answer, exit " + last.exitCode() + ": " + last.output()
                + "); end of " + logFile() + ":\n" + fenced.logTail());
    }

    private PeerCommand.Result admin(Duration timeout, Map<String, String> environment, List<String> arguments) {
        List<String> command = Stream.concat(Stream.of(stonithAdmin), arguments.stream()).toList();
        try {
            return new PeerCommand(command, environment, "", timeout).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running stonith_admin " + arguments.get(0), e);
        }
    }

    private PeerCommand.Result check(String what, PeerCommand.Result result) {
        if (result.exitCode() != 0) {
            Daemon fencer = fenced;
            throw new IllegalStateException("stonith_admin could not " + what + " (exit " + result.exitCode() + "): "
                    + result.output() + "\nend of " + logFile() + ":\n" + (fencer == null ? "" : fencer.logTail()));
        }
        return result;
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static Optional<Path> fencedExecutable() {
        return FENCED.stream().filter(Files::isExecutable).findFirst();
    }

    private static String procNetUnix() {
        try {
            return Files.readString(Path.of("/proc/net/unix"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/net/unix to see whether a fencer already runs", e);
        }
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static void requireThat(boolean condition, String reason) {
        if (condition) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException(reason + " (CI=true: CI must run this test, not skip it)");
        }
        assumeThat(condition).as(reason).isTrue();
    }

    private static int freeUdpPort() {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free UDP port on 127.0.0.1 for corosync", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for pacemaker-fenced", e);
        }
    }
}
