package dev.remedy.simulators.snmp;

import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.test.PowerTarget;
import java.io.File;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Debian's {@code snmpd} (package {@code snmpd}, net-snmp 5.9) as a child process on a free UDP port of 127.0.0.1,
 * serving one emulated {@link SnmpDevice} through {@code pass_persist} and {@link SnmpPassPersist}: a real SNMP
 * agent (v1, v2c and v3 with USM, engine-ID discovery, net-snmp's own encoding) in front of the emulator. The
 * device lives in a {@link SnmpStateFile} that {@link #outlet(int)} reads and sets behind the agent's back.
 *
 * <p>{@link #start} writes its own {@code snmpd.conf} ({@link #configFile()}): listening on udp:127.0.0.1:port only,
 * the system group with the device kind's {@code sysObjectID}, community {@link #community()} with read-write
 * access, and the SNMPv3 users {@link #users()} (authPriv SHA-256 + AES-128, SHA-256 + AES-256 where net-snmp has
 * it, SHA-1 + AES-128, and authNoPriv SHA-256). It runs {@code snmpd -f -Lo -C -c snmpd.conf} with its persistent
 * directory in the work directory (it never touches {@code /var/lib/snmp}), its output in {@link #logFile()}, and
 * {@code pass_persist} running {@code java} with the test's own class path; then it waits at most
 * {@link #START_TIMEOUT} until {@code snmpget} reads the device's {@code sysObjectID} and its first outlet
 * variable (which also starts the pass_persist JVM). {@link #close()} stops snmpd by its pid and then the
 * pass_persist JVMs it started, and a JVM shutdown hook does the same should a test forget.
 *
 * <p>Known limit of snmpd's pass_persist: a SET of several bindings is not all or nothing (snmpd sends the bindings
 * one by one and cannot undo the ones already done); the in-JVM {@link SnmpDevice} is.
 *
 * <p>Not thread-safe to start or close concurrently with other calls; the accessors are thread-safe.
 */
public final class SnmpdProcess implements AutoCloseable {

    /** How long {@link #start} waits for snmpd and the emulator to answer. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** The v1/v2c community of {@link #start(Path, SnmpDeviceSpec)}. */
    public static final String DEFAULT_COMMUNITY = "remedy-community-rw";
    /** authPriv with SHA-256 and AES-128. */
    public static final SnmpUser SHA256_AES = SnmpUser.authPriv("remedy-sha256-aes", SnmpUser.Auth.SHA_256,
            "remedy-auth-sha256", SnmpUser.Priv.AES, "remedy-priv-aes128");
    /** authPriv with SHA-256 and AES-256, where net-snmp supports AES-256. */
    public static final SnmpUser SHA256_AES256 = SnmpUser.authPriv("remedy-sha256-aes256", SnmpUser.Auth.SHA_256,
            "remedy-auth-sha256-b", SnmpUser.Priv.AES_256, "remedy-priv-aes256");
    /** authPriv with SHA-1 and AES-128 (the strongest fence-agents' {@code snmp_auth_prot} can choose). */
    public static final SnmpUser SHA_AES = SnmpUser.authPriv("remedy-sha-aes", SnmpUser.Auth.SHA,
            "remedy-auth-sha1", SnmpUser.Priv.AES, "remedy-priv-sha1-aes");
    /** authNoPriv with SHA-256. */
    public static final SnmpUser SHA256_AUTH_ONLY = SnmpUser.authNoPriv("remedy-auth-only", SnmpUser.Auth.SHA_256,
            "remedy-auth-only-sha256");

    private static final String HOST = SnmpdConfig.HOST;
    private static final Pattern SAFE_PATH = Pattern.compile("/[A-Za-z0-9._/+,:@=-]*");
    private static final Pattern PORT_TAKEN =
            Pattern.compile("Error opening specified endpoint|Address already in use");
    private static final int PORT_ATTEMPTS = 3;
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final Path workDir;
    private final int port;
    private final String community;
    private final List<SnmpUser> users;
    private final SnmpStateFile state;
    private final Thread shutdownHook;

    private SnmpdProcess(Process process, Path workDir, int port, String community, List<SnmpUser> users,
            SnmpStateFile state) {
        this.process = process;
        this.workDir = workDir;
        this.port = port;
        this.community = community;
        this.users = users;
        this.state = state;
        this.shutdownHook = new Thread(this::stop, "snmpd-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** {@link #start(Path, SnmpDeviceSpec, String, List)} with the default community and users. */
    public static SnmpdProcess start(Path workDir, SnmpDeviceSpec device) {
        List<SnmpUser> users = new ArrayList<>(List.of(SHA256_AES, SHA_AES, SHA256_AUTH_ONLY));
        if (aes256Supported()) {
            users.add(1, SHA256_AES256);
        }
        return start(workDir, device, DEFAULT_COMMUNITY, users);
    }

    /**
     * Starts snmpd in front of a new device with every outlet on.
     *
     * @param workDir a directory for the configuration, state file, logs and snmpd's persistent files (created if
     *     missing); its path may only hold letters, digits and {@code ._/+,:@=-}, as snmpd splits the pass_persist
     *     command at spaces
     * @param device the device to emulate
     * @param community the v1/v2c community (8 or more letters, digits or {@code ._-})
     * @param users the SNMPv3 users
     * @throws IllegalStateException if snmpd exits or does not answer within {@link #START_TIMEOUT} (the message
     *     holds the end of its log), everything started being stopped first; in CI, if snmpd or snmpget is missing
     * @throws IllegalArgumentException if the work directory, the Java executable's path or the community break
     *     the rules above
     * @throws UncheckedIOException if the work directory cannot be written
     * @throws org.opentest4j.TestAbortedException outside CI, when snmpd or snmpget is missing
     */
    public static SnmpdProcess start(Path workDir, SnmpDeviceSpec device, String community, List<SnmpUser> users) {
        Objects.requireNonNull(device, "device");
        List<SnmpUser> userList = List.copyOf(users);
        if (!community.matches("[A-Za-z0-9._-]{8,64}")) {
            throw new IllegalArgumentException("the community must be 8 to 64 letters, digits or ._- (snmpd.conf "
                    + "takes it unquoted)");
        }
        PeerPrograms.require("snmpd", "snmpd");
        PeerPrograms.require("snmpget", "snmp");
        Path directory = safe(workDir.toAbsolutePath().normalize(), "work directory");
        Path java = safe(Path.of(System.getProperty("java.home"), "bin", "java"), "Java executable");
        String snmpd = PeerPrograms.find("snmpd").orElseThrow().toString();
        SnmpStateFile state;
        try {
            for (String sub : List.of("persist", "client", "mibs")) {
                Files.createDirectories(directory.resolve(sub));
            }
            state = SnmpStateFile.create(directory.resolve("device.state"), device);
            Files.writeString(directory.resolve("pass-persist.args"), SnmpdConfig.javaArguments(
                    absoluteClassPath(), state.path(), directory.resolve("pass-persist.log")),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write snmpd's files into " + directory, e);
        }
        String passPersist = java + " @" + directory.resolve("pass-persist.args");
        IllegalStateException portTaken = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            int port = freeUdpPort();
            SnmpdProcess started = launch(snmpd, directory, port, community, userList, state,
                    SnmpdConfig.render(port, device, community, userList, passPersist));
            boolean ready = false;
            try {
                ready = started.awaitReady();
                if (ready) {
                    return started;
                }
                portTaken = new IllegalStateException("port " + port + " was taken before snmpd bound it: "
                        + started.logTail());
            } finally {
                if (!ready) {
                    started.close();
                }
            }
        }
        throw new IllegalStateException("snmpd found no free UDP port on " + HOST + " in " + PORT_ATTEMPTS
                + " attempts; last: " + portTaken.getMessage());
    }

    /** Whether this net-snmp's tools offer AES-256 privacy ({@code snmpget -h} lists it). */
    public static boolean aes256Supported() {
        return ChildProcesses.run(PeerCommand.of(TOOL_TIMEOUT, "snmpget", "-h")).output().contains("AES-256");
    }

    /** The address snmpd listens on: {@code "127.0.0.1"}. */
    public String host() {
        return HOST;
    }

    /** The UDP port snmpd listens on. */
    public int port() {
        return port;
    }

    /** The v1/v2c community (read-write). */
    public String community() {
        return community;
    }

    /** The SNMPv3 users. */
    public List<SnmpUser> users() {
        return users;
    }

    /** The device snmpd serves. */
    public SnmpDeviceSpec device() {
        return state.spec();
    }

    /** The device's state file. */
    public SnmpStateFile state() {
        return state;
    }

    /** Outlet (port) {@code number} of the device, observed and set through the state file. */
    public PowerTarget outlet(int number) {
        return state.outlet(number);
    }

    /**
     * The environment a net-snmp client tool needs here: its persistent directory in the work directory, so that
     * a witness's {@code snmpget} does not write to {@code /var/lib/snmp} either.
     */
    public Map<String, String> clientEnvironment() {
        return Map.of("SNMP_PERSISTENT_DIR", workDir.resolve("client").toString());
    }

    /**
     * A net-snmp tool ({@code snmpget}, {@code snmpset}, {@code snmpwalk}…) aimed at this agent: {@code tool -m ''
     * -On -r 1 -t 2 <security> 127.0.0.1:<port> <arguments>} with {@link #clientEnvironment()}. For test witnesses.
     *
     * @param security {@code List.of("-v2c", "-c", community())} or {@link SnmpUser#clientArguments()}
     */
    public PeerCommand tool(String tool, List<String> security, String... arguments) {
        List<String> command = new ArrayList<>(List.of(tool, "-m", "", "-On", "-r", "1", "-t", "2"));
        command.addAll(security);
        command.add(HOST + ":" + port);
        command.addAll(List.of(arguments));
        return new PeerCommand(command, clientEnvironment(), "", TOOL_TIMEOUT);
    }

    /** v2c client arguments with the community: {@code -v2c -c <community>}. */
    public List<String> v2c() {
        return List.of("-v2c", "-c", community);
    }

    /** The configuration snmpd runs with. */
    public Path configFile() {
        return workDir.resolve("snmpd.conf");
    }

    /** Where snmpd's output goes ({@code -Lo}). */
    public Path logFile() {
        return workDir.resolve("snmpd.log");
    }

    /** Where the pass_persist front writes the SETs it refused and its problems. */
    public Path passPersistLog() {
        return workDir.resolve("pass-persist.log");
    }

    /** The work directory. */
    public Path workDir() {
        return workDir;
    }

    /** snmpd's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether snmpd still runs. */
    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Stops snmpd by its pid (SIGTERM, up to 5 s, then SIGKILL), then the pass_persist JVMs it started (they end
     * when snmpd closes their input; stopped the same way if they do not). Idempotent.
     */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shutdownInProgress) {
            // called during shutdown: the hook runs or ran anyway
        }
    }

    @Override
    public String toString() {
        return "SnmpdProcess[" + HOST + ":" + port + ", " + state.spec().kind() + " " + state.spec().name() + ", pid "
                + process.pid() + (process.isAlive() ? "" : ", exited") + "]";
    }

    private void stop() {
        List<ProcessHandle> children = process.descendants().toList();
        ChildProcesses.terminate(process.toHandle());
        children.forEach(ChildProcesses::terminate);
    }

    private static SnmpdProcess launch(String snmpd, Path directory, int port, String community, List<SnmpUser> users,
            SnmpStateFile state, String config) {
        Path configFile = directory.resolve("snmpd.conf");
        Path log = directory.resolve("snmpd.log");
        List<String> command = new ArrayList<>(List.of(snmpd, "-f", "-Lo", "-C", "-c", configFile.toString(),
                "-p", directory.resolve("snmpd.pid").toString(), "-M", directory.resolve("mibs").toString()));
        List<String> excluded = SnmpdConfig.excludedModules(state.spec().kind());
        if (!excluded.isEmpty()) {
            command.addAll(List.of("-I", "-" + String.join(",", excluded)));
        }
        try {
            Files.writeString(configFile, config, StandardCharsets.UTF_8);
            Files.writeString(log, "", StandardCharsets.UTF_8);
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put("SNMP_PERSISTENT_DIR", directory.resolve("persist").toString());
            return new SnmpdProcess(builder.start(), directory, port, community, users, state);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Waits until snmpget reads sysObjectID.0 and the first variable of the device's MIB.
     *
     * @return false if snmpd exited because its port was taken
     * @throws IllegalStateException if snmpd exits for another reason or does not answer in time
     */
    private boolean awaitReady() {
        String sysObjectId = state.spec().kind().sysObjectId().toString();
        Oid subtree = state.spec().kind().subtrees().get(0);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                if (PORT_TAKEN.matcher(ChildProcesses.read(logFile())).find()) {
                    return false;
                }
                throw new IllegalStateException("snmpd exited with status " + process.exitValue() + " before "
                        + "answering on " + HOST + ":" + port + "; end of " + logFile() + ":\n" + logTail());
            }
            PeerCommand.Result system = ChildProcesses.run(tool("snmpget", v2c(),
                    SnmpDevice.SYS_OBJECT_ID.toString()));
            PeerCommand.Result first = ChildProcesses.run(tool("snmpgetnext", v2c(), subtree.toString()));
            last = system.output() + "\n" + first.output();
            if (system.exitCode() == 0 && system.output().endsWith(sysObjectId) && first.exitCode() == 0
                    && first.output().startsWith(subtree + ".")) {
                return true;
            }
            ChildProcesses.pause();
        }
        throw new IllegalStateException("snmpd on " + HOST + ":" + port + " did not serve the emulated "
                + state.spec().kind() + " within " + START_TIMEOUT.toSeconds() + " s (snmpget said: " + last
                + "); end of " + logFile() + ":\n" + logTail() + "\npass_persist log " + passPersistLog()
                + ":\n" + ChildProcesses.read(passPersistLog()));
    }

    /** The last lines of snmpd's log, for exception messages. */
    private String logTail() {
        return ChildProcesses.tail(ChildProcesses.read(logFile()));
    }

    private static Path safe(Path path, String what) {
        if (!SAFE_PATH.matcher(path.toString()).matches()) {
            throw new IllegalArgumentException(what + " " + path + " must only hold letters, digits and ._/+,:@=- "
                    + "because snmpd splits its pass_persist command at spaces; use another directory");
        }
        return path;
    }

    private static int freeUdpPort() {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(HOST), 0))) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free UDP port on " + HOST, e);
        }
    }

    /**
     * This JVM's class path with every entry absolute: snmpd runs pass_persist in its own work directory, where a
     * relative entry (as in {@code java -jar benchmarks/target/remedy-benchmarks.jar}) would not be found.
     */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
