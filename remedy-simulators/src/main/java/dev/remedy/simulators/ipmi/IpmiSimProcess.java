package dev.remedy.simulators.ipmi;

import dev.remedy.test.PowerTarget;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The real OpenIPMI {@code ipmi_sim} (Debian package {@code openipmi}) as a child process, answering IPMI 1.5 and
 * 2.0 (RMCP+) on a free UDP port of 127.0.0.1, with one administrator account and chassis power kept in files
 * ({@link #powerTarget()}). For integration tests and benchmarks against a BMC implementation nobody on the team
 * wrote.
 *
 * <p>{@link #start} writes {@code lan.conf}, {@code sim.emu} and the chassis-control script into the work
 * directory, runs {@code ipmi_sim -c lan.conf -f sim.emu -s state -n -p} (no console, no persisted state) with its
 * output in {@link #logFile()}, and waits at most 10 s until the BMC answers a session-less Get Channel
 * Authentication Capabilities and reports the GUID written into this instance's {@code lan.conf} (so a foreign
 * BMC on the same port is never mistaken for it: {@code ipmi_sim} binds with address reuse and does not notice a
 * taken port). Quirks of Debian's {@code ipmi_sim} 2.0.33 worth knowing: cipher suites 0 to 3 only (an Open
 * Session for suite 17 gets status 0x04, invalid authentication algorithm, in a 2-byte answer); no answer to Get
 * Channel Cipher Suites (ipmitool needs {@code -C 3}); a wrong password only shows as a RAKP 2 code the console
 * cannot verify; a power cycle is power off now and power on one second later.
 *
 * <p>Not thread-safe to start or close concurrently; the accessors and the power target are thread-safe.
 */
public final class IpmiSimProcess implements AutoCloseable {

    /** The user of {@link #start(Path)}. */
    public static final String DEFAULT_USER = BmcSpec.DEFAULT_USER;
    /** The password of {@link #start(Path)}. */
    public static final String DEFAULT_PASSWORD = BmcSpec.DEFAULT_PASSWORD;
    /** How long {@link #start} waits for the BMC to answer. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    /** The executable looked up on {@code PATH}. */
    public static final String EXECUTABLE = "ipmi_sim";

    private static final String HOST = "127.0.0.1";
    private static final Pattern SAFE_PATH = Pattern.compile("[A-Za-z0-9._/+,:@=-]+");
    private static final int PORT_ATTEMPTS = 3;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Process process;
    private final Path workDir;
    private final int port;
    private final String user;
    private final String password;
    private final Path logFile;
    private final Path stateFile;
    private final FilePowerTarget powerTarget;

    private IpmiSimProcess(Process process, Path workDir, int port, String user, String password) {
        this.process = process;
        this.workDir = workDir;
        this.port = port;
        this.user = user;
        this.password = password;
        this.logFile = workDir.resolve("ipmi_sim.log");
        this.stateFile = workDir.resolve("power");
        this.powerTarget = new FilePowerTarget(stateFile, workDir.resolve("power.history"));
    }

    /** Whether {@value #EXECUTABLE} is an executable on {@code PATH}. */
    public static boolean available() {
        return findExecutable().isPresent();
    }

    /** {@link #start(Path, String, String)} with user {@value #DEFAULT_USER}, password {@value #DEFAULT_PASSWORD}. */
    public static IpmiSimProcess start(Path workDir) {
        return start(workDir, DEFAULT_USER, DEFAULT_PASSWORD);
    }

    /**
     * Starts {@code ipmi_sim} with one administrator account, the machine powered on and an empty history.
     *
     * @param workDir a directory for the configuration, state files and log (created if missing; its path may
     *     only hold letters, digits and {@code ._/+,:@=-} because {@code ipmi_sim} passes it through a shell)
     * @param user 1 to 16 printable US-ASCII characters, no quote or backslash
     * @param password up to 20 printable US-ASCII characters, no quote or backslash
     * @throws IllegalStateException if {@code ipmi_sim} is missing, exits, or does not answer within 10 s (the
     *     message holds the end of its log); the process is stopped before this is thrown
     * @throws IllegalArgumentException if an argument breaks the rules above
     * @throws UncheckedIOException if the work directory cannot be written
     */
    public static IpmiSimProcess start(Path workDir, String user, String password) {
        Objects.requireNonNull(workDir, "workDir");
        BmcUser account = new BmcUser(user, password, Privilege.ADMINISTRATOR);
        if (user.contains("\"") || user.contains("\\") || password.contains("\"") || password.contains("\\")) {
            throw new IllegalArgumentException("ipmi_sim's lan.conf cannot quote '\"' or '\\\\'; choose a user name "
                    + "and password without them");
        }
        Path directory = workDir.toAbsolutePath().normalize();
        if (!SAFE_PATH.matcher(directory.toString()).matches()) {
            throw new IllegalArgumentException("work directory " + directory + " must only hold letters, digits and "
                    + "._/+,:@=- because ipmi_sim runs the chassis-control script through a shell; use another "
                    + "directory");
        }
        String executable = findExecutable().map(Path::toString).orElseThrow(() -> new IllegalStateException(EXECUTABLE + " is not on "
                + "PATH; install it (Debian/Ubuntu: apt-get install -y openipmi) or skip when "
                + "IpmiSimProcess.available() is false"));
        try {
            prepare(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write ipmi_sim's files into " + directory, e);
        }
        IllegalStateException lastFailure = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            byte[] guid = new byte[16];
            RANDOM.nextBytes(guid);
            int port = freeUdpPort();
            IpmiSimProcess sim = launch(executable, directory, port, account.name(), account.password(), guid);
            boolean ready = false;
            try {
                sim.awaitReady(guid);
                ready = true;
                return sim;
            } catch (PortTakenException e) {
                lastFailure = e;
            } finally {
                if (!ready) {
                    sim.close();
                }
            }
        }
        throw lastFailure;
    }

    /** The address the BMC listens on: {@code "127.0.0.1"}. */
    public String host() {
        return HOST;
    }

    /** The UDP port the BMC listens on. */
    public int port() {
        return port;
    }

    /** The administrator's user name. */
    public String user() {
        return user;
    }

    /** The administrator's password (hand it to clients through the environment or stdin, never argv). */
    public String password() {
        return password;
    }

    /**
     * The machine behind the BMC, backed by the files the chassis-control script keeps: {@code power(state)}
     * writes the state file and records the change; the history holds every state entered through
     * {@code ipmi_sim} or {@code power(state)} (a power cycle records OFF, then ON a second later; a hard reset
     * records nothing).
     */
    public PowerTarget powerTarget() {
        return powerTarget;
    }

    /** Where {@code ipmi_sim}'s standard output and error go. */
    public Path logFile() {
        return logFile;
    }

    /** The work directory (configuration, state files, log). */
    public Path workDir() {
        return workDir;
    }

    /**
     * Every call {@code ipmi_sim} made to the chassis-control script, oldest first, as the words after the state
     * file (for example {@code "get power"}, {@code "set power 0"}, {@code "set reset 1"}).
     */
    public List<String> chassisCalls() {
        Path calls = stateFile.resolveSibling("power.calls");
        try {
            return Files.exists(calls) ? Files.readAllLines(calls, StandardCharsets.US_ASCII) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + calls, e);
        }
    }

    /** Whether the process is still running. */
    public boolean alive() {
        return process.isAlive();
    }

    /** Stops the process: SIGTERM, up to 5 s, then SIGKILL and up to 5 s more. Idempotent. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "IpmiSimProcess[" + HOST + ":" + port + ", pid " + process.pid() + (process.isAlive() ? "" : ", exited")
                + "]";
    }

    private static Optional<Path> findExecutable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Arrays.stream(path.split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, EXECUTABLE))
                .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst();
    }

    /** Writes the chassis-control script, the machine (powered on, no history) and sim.emu into {@code directory}. */
    static void prepare(Path directory) throws IOException {
        Files.createDirectories(directory.resolve("state"));
        Path script = directory.resolve("chassis-control.sh");
        try (InputStream resource = IpmiSimProcess.class.getResourceAsStream("chassis-control.sh")) {
            if (resource == null) {
                throw new IOException("resource chassis-control.sh is missing from the remedy-simulators jar");
            }
            Files.write(script, resource.readAllBytes());
        }
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(directory.resolve("power"), "1\n", StandardCharsets.US_ASCII);
        for (String name : List.of("power.history", "power.calls", "power.boot")) {
            Files.deleteIfExists(directory.resolve(name));
        }
        Files.writeString(directory.resolve("sim.emu"), """
                mc_setbmc 0x20
                mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr
                mc_enable 0x20
                """, StandardCharsets.US_ASCII);
    }

    private static String lanConf(Path directory, int port, String user, String password, byte[] guid) {
        String auths = "none md2 md5 straight";
        return String.join("\n",
                "# Written by remedy's IpmiSimProcess.",
                "name \"sim1\"",
                "set_working_mc 0x20",
                "  startlan 1",
                "    addr " + HOST + " " + port,
                "    priv_limit admin",
                "    allowed_auths_callback " + auths,
                "    allowed_auths_user " + auths,
                "    allowed_auths_operator " + auths,
                "    allowed_auths_admin " + auths,
                "    guid " + HexFormat.of().formatHex(guid),
                "  endlan",
                "  user 2 true \"" + user + "\" \"" + password + "\" admin 10 " + auths,
                "  chassis_control \"" + chassisControl(directory) + "\"",
                "");
    }

    /**
     * The command ipmi_sim runs (through {@code sh -c}, with the operation appended) for every chassis call. The
     * script is sourced by a shell function instead of run as a program: one shell per call instead of two, which
     * takes about 0.7 ms off every status read that all clients pay alike, as a real BMC answers from memory.
     */
    private static String chassisControl(Path directory) {
        return "f() { set -- " + directory.resolve("power") + " $*; . " + directory.resolve("chassis-control.sh")
                + "; }; f";
    }

    private static IpmiSimProcess launch(String executable, Path directory, int port, String user, String password,
            byte[] guid) {
        try {
            Files.writeString(directory.resolve("lan.conf"), lanConf(directory, port, user, password, guid),
                    StandardCharsets.US_ASCII);
            Path log = directory.resolve("ipmi_sim.log");
            Files.writeString(log, "", StandardCharsets.US_ASCII);
            Process process = new ProcessBuilder(executable, "-c", "lan.conf", "-f", "sim.emu", "-s", "state", "-n",
                    "-p")
                    .directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new IpmiSimProcess(process, directory, port, user, password);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + executable + " in " + directory + ": " + e.getMessage(), e);
        }
    }

    private void awaitReady(byte[] guid) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            socket.setSoTimeout(100);
            InetSocketAddress bmc = new InetSocketAddress(HOST, port);
            while (System.nanoTime() - deadline < 0) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("ipmi_sim exited with status " + process.exitValue()
                            + " before answering on " + HOST + ":" + port + "; end of " + logFile + ":\n" + logTail());
                }
                byte[] answer = ask(socket, bmc, SessionlessProbe.authCapabilities());
                if (answer != null && SessionlessProbe.completedOk(answer, 0x38)) {
                    byte[] reported = ask(socket, bmc, SessionlessProbe.systemGuid());
                    if (reported != null && SessionlessProbe.completedOk(reported, 0x37)) {
                        if (!Arrays.equals(SessionlessProbe.data(reported), guid)) {
                            throw new PortTakenException("another BMC already answers on " + HOST + ":" + port);
                        }
                        return;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe ipmi_sim on " + HOST + ":" + port, e);
        }
        throw new IllegalStateException("ipmi_sim did not answer Get Channel Authentication Capabilities on " + HOST
                + ":" + port + " within " + START_TIMEOUT.toSeconds() + " s; end of " + logFile + ":\n" + logTail());
    }

    private static byte[] ask(DatagramSocket socket, InetSocketAddress bmc, byte[] request) throws IOException {
        socket.send(new DatagramPacket(request, request.length, bmc));
        byte[] buffer = new byte[512];
        DatagramPacket answer = new DatagramPacket(buffer, buffer.length);
        try {
            socket.receive(answer);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return Arrays.copyOf(buffer, answer.getLength());
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
            return tail.isEmpty() ? "(empty)" : tail;
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static int freeUdpPort() {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free UDP port on " + HOST, e);
        }
    }

    /** Another BMC answered on the port chosen: try another port. */
    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(String message) {
            super(message);
        }
    }
}
