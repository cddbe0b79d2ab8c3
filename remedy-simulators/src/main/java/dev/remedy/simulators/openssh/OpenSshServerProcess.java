package dev.remedy.simulators.openssh;

import dev.remedy.simulators.PeerPrograms;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Debian's OpenSSH server ({@code /usr/sbin/sshd}, package {@code openssh-server}) as a child process on a free
 * port of 127.0.0.1, a real SSH peer for integration tests of SSH fence agents. Every session, exec or shell, runs
 * the forced command {@code apc-cli.sh}, which emulates the CLI of an APC switched rack PDU (banner, {@code apc>}
 * prompt, {@code olStatus N|all}, {@code olOn N}, {@code olOff N}, {@code exit}; section 1 of the fence-ssh
 * device contract). Outlet states live in a file that {@link #outletState} and {@link #setOutlet} read and write.
 *
 * <p>{@link #start} writes its own {@code sshd_config} ({@link #configFile()}), generates a host key, creates the
 * local login user if needed (root only: {@code useradd}, then {@code chpasswd} with the password on standard
 * input), runs {@code sshd -D -e -f sshd_config} with its log in {@link #logFile()} and waits at most 10 s until
 * sshd listens and the port accepts connections. {@link #close()} (and a JVM shutdown hook, should a test forget)
 * stops sshd and every session it started and deletes the user it created.
 *
 * <p>Root: as root (CI) everything works. As another user, sshd can only log in the user it runs as: start with
 * {@code options.withUser(<your account>)} for key login; any other user skips the test (fails it when
 * {@code CI=true}), and so does {@link #requirePasswordLogin()}, since sshd reads passwords from
 * {@code /etc/shadow}.
 *
 * <p>Not thread-safe to start or close concurrently with other calls; the accessors are thread-safe.
 */
public final class OpenSshServerProcess implements AutoCloseable {

    /** How long {@link #start} waits for sshd to listen, and {@link #regenerateHostKey()} for the new key. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private static final String HOST = SshdConfig.HOST;
    private static final Pattern SAFE_PATH = Pattern.compile("/[A-Za-z0-9._/+,:@=-]*");

    private final Path workDir;
    private final OpenSshOptions options;
    private final boolean root;
    private final String executable;
    private final Path configFile;
    private final Path logFile;
    private final Path authorizedKeys;
    private final Thread shutdownHook;
    private volatile LocalUser user;
    private volatile ApcCli cli;
    private volatile HostKey hostKey;
    private volatile SshdProcess sshd;
    private boolean closed;

    private OpenSshServerProcess(Path workDir, OpenSshOptions options, boolean root, String executable) {
        this.workDir = workDir;
        this.options = options;
        this.root = root;
        this.executable = executable;
        this.configFile = workDir.resolve("sshd_config");
        this.logFile = workDir.resolve("sshd.log");
        this.authorizedKeys = workDir.resolve("authorized_keys").resolve(options.user());
        this.shutdownHook = new Thread(this::closeQuietly, "openssh-server-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts sshd with the APC CLI as its forced command, every outlet on and no authorized key yet.
     *
     * @param workDir a directory for the configuration, host key, log, script and state (created if missing). Its
     *     path may only hold letters, digits and {@code ._/+,:@=-} (sshd_config and the forced command take it
     *     unquoted). As root its parents must be searchable by others (a JUnit {@code @TempDir} itself qualifies,
     *     a folder inside one does not), since sessions run as the login user; the directory itself is made
     *     searchable (mode 711)
     * @param options the user, password, host key type and outlet count
     * @throws IllegalStateException if sshd is missing in CI, the login user cannot be set up, sshd exits or does
     *     not listen within 10 s (the message holds the end of its log); everything started is stopped first
     * @throws IllegalArgumentException if the work directory's path breaks the rule above
     * @throws UncheckedIOException if the work directory cannot be written
     * @throws org.opentest4j.TestAbortedException outside CI, when sshd is missing, or when not root and
     *     {@code options.user()} is not the current account
     */
    public static OpenSshServerProcess start(Path workDir, OpenSshOptions options) {
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(options, "options");
        PeerPrograms.require("sshd", "openssh-server");
        PeerPrograms.require("ssh-keygen", "openssh-client");
        Path directory = workDir.toAbsolutePath().normalize();
        if (!SAFE_PATH.matcher(directory.toString()).matches()) {
            throw new IllegalArgumentException("work directory " + directory + " must only hold letters, digits and "
                    + "._/+,:@=- because sshd_config and the forced command take it unquoted; use another directory");
        }
        boolean root = Host.isRoot();
        Host.require(root || options.user().equals(Host.currentUser()), "sshd must run as root to log in user "
                + options.user() + " (the fixture creates it with useradd); run the test as root, as CI does, or "
                + "start with OpenSshOptions.withUser(\"" + Host.currentUser() + "\") for key login only");
        String executable = PeerPrograms.find("sshd").orElseThrow().toAbsolutePath().toString();
        OpenSshServerProcess server = new OpenSshServerProcess(directory, options, root, executable);
        boolean started = false;
        try {
            server.prepare();
            server.launch();
            started = true;
            return server;
        } finally {
            if (!started) {
                server.closeQuietly();
            }
        }
    }

    /** The address sshd listens on: {@code "127.0.0.1"}. */
    public String host() {
        return HOST;
    }

    /** The TCP port sshd listens on. */
    public int port() {
        return sshd.port();
    }

    /** The user clients log in as. */
    public String user() {
        return options.user();
    }

    /**
     * The user's password (hand it to clients through the environment or standard input, never argv). Valid when
     * {@link #requirePasswordLogin()} passes.
     */
    public String password() {
        return options.password();
    }

    /** The options the server was started with. */
    public OpenSshOptions options() {
        return options;
    }

    /**
     * Skips the calling test (fails it when {@code CI=true}) unless password login works here: sshd runs as root
     * and the login user was created by this fixture, so its password is {@link #password()}.
     */
    public void requirePasswordLogin() {
        Host.require(root, "password login needs root: sshd checks passwords in /etc/shadow and the fixture "
                + "creates user " + user() + " with useradd and chpasswd; run the test as root, as CI does");
        Host.require(user.owned(), "user " + user() + " existed before this server started and was not made by "
                + "the fixture, so its password is unknown; choose another user (OpenSshOptions.withUser) or delete "
                + "the account (userdel " + user() + ")");
    }

    /**
     * Authorizes one more public key for the login user: appends the line to {@code authorized_keys/<user>} in
     * the work directory (mode 600, owned by the user, who sshd reads it as).
     *
     * @param openSshPublicKeyLine one line as in an OpenSSH {@code .pub} file ({@code ssh-ed25519 AAAA… comment})
     * @throws IllegalArgumentException if it is blank or spans several lines
     * @throws UncheckedIOException if the file cannot be written
     */
    public void authorizeKey(String openSshPublicKeyLine) {
        String line = openSshPublicKeyLine.strip();
        if (line.isEmpty() || line.contains("\n") || line.contains("\r")) {
            throw new IllegalArgumentException("an authorized key is one non-blank line of an OpenSSH .pub file, "
                    + "such as 'ssh-ed25519 AAAA... comment'");
        }
        try {
            Files.writeString(authorizedKeys, line + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            Files.setPosixFilePermissions(authorizedKeys, PosixFilePermissions.fromString("rw-------"));
            giveToLoginUser(authorizedKeys);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the authorized keys " + authorizedKeys, e);
        }
    }

    /** The host key's fingerprint as {@code ssh-keygen -l -E sha256} prints it: {@code SHA256:} and base64. */
    public String hostKeyFingerprint() {
        return hostKey.fingerprint();
    }

    /** The line a client's known_hosts file needs: {@code [127.0.0.1]:<port> <type> <base64>}. */
    public String knownHostsLine() {
        return hostKey.knownHostsLine(HOST, port());
    }

    /** The host key's public key file ({@code host_ed25519.pub} or {@code host_rsa.pub} in the work directory). */
    public Path hostPublicKeyFile() {
        return hostKey.publicKey();
    }

    /**
     * Replaces the host key with a new one of the same type, as a re-installed device would: new key files, then
     * SIGHUP, on which sshd re-executes itself (same pid, same port) and reads them. Returns once
     * {@code ssh-keyscan} sees the new key (at most 10 s). Sessions already open are not affected; a client that
     * pinned the old key must now fail host key verification.
     *
     * @throws IllegalStateException if the server is closed, sshd dies, or the new key is not served within 10 s
     */
    public synchronized void regenerateHostKey() {
        checkOpen();
        HostKey fresh = HostKey.generate(workDir, options.hostKeyType());
        sshd.hangUp();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String served = "";
        while (System.nanoTime() - deadline < 0) {
            if (!sshd.alive()) {
                throw new IllegalStateException("sshd exited with status " + sshd.exitValue() + " after SIGHUP "
                        + "while rereading its host key " + fresh.privateKey() + "; end of " + logFile + ":\n"
                        + sshd.logTail());
            }
            served = Commands.run(Commands.of("ssh-keyscan", "-T", "2", "-t", options.hostKeyType().shortName(),
                    "-p", String.valueOf(port()), HOST)).output();
            if (served.contains(" " + fresh.base64())) {
                hostKey = fresh;
                return;
            }
            SshdProcess.pause(100);
        }
        throw new IllegalStateException("sshd on " + HOST + ":" + port() + " did not serve the new host key "
                + fresh.fingerprint() + " within " + START_TIMEOUT.toSeconds() + " s after SIGHUP (ssh-keyscan saw: "
                + (served.isEmpty() ? "nothing" : served) + "); end of " + logFile + ":\n" + sshd.logTail());
    }

    /**
     * Whether outlet {@code outlet} (1 to the outlet count) is on, as the CLI last left it.
     *
     * @throws IllegalArgumentException if there is no such outlet
     */
    public boolean outletState(int outlet) {
        return cli.isOn(outlet);
    }

    /**
     * Turns outlet {@code outlet} on or off, as {@code olOn}/{@code olOff} would; the next {@code olStatus} shows
     * it.
     *
     * @throws IllegalArgumentException if there is no such outlet
     */
    public void setOutlet(int outlet, boolean on) {
        cli.set(outlet, on);
    }

    /** The outlet state file ({@code pdu/outlets} in the work directory, one line {@code "N on|off"} per outlet). */
    public Path stateFile() {
        return cli.stateFile();
    }

    /** sshd's log so far (standard error with {@code LogLevel VERBOSE}), or a note when it cannot be read. */
    public String log() {
        SshdProcess current = sshd;
        return current == null ? "" : current.log();
    }

    /** The file sshd logs to. */
    public Path logFile() {
        return logFile;
    }

    /** The configuration sshd runs with. */
    public Path configFile() {
        return configFile;
    }

    /** The work directory. */
    public Path workDir() {
        return workDir;
    }

    /** Whether sshd still runs. */
    public boolean alive() {
        SshdProcess current = sshd;
        return current != null && current.alive();
    }

    /**
     * Stops sshd and every session it started (SIGTERM, up to 5 s, then SIGKILL and up to 5 s more), then deletes
     * the login user if this fixture created it. Idempotent.
     *
     * @throws IllegalStateException if the user cannot be deleted (the message says how to do it by hand)
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
            SshdProcess current = sshd;
            if (current != null) {
                current.stop();
            }
            LocalUser login = user;
            if (login != null) {
                login.deleteIfOwned();
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
        SshdProcess current = sshd;
        return "OpenSshServerProcess[" + HOST + (current == null ? "" : ":" + current.port()) + ", user " + user()
                + ", " + (current == null ? "not started" : "pid " + current.pid() + (current.alive() ? "" : ", exited"))
                + "]";
    }

    /** Writes everything sshd needs but its configuration: directories, the user, host key, script, state. */
    private void prepare() {
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(authorizedKeys.getParent());
            Files.setPosixFilePermissions(authorizedKeys.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
            if (root) {
                checkSearchableByOthers();
                Files.setPosixFilePermissions(workDir, PosixFilePermissions.fromString("rwx--x--x"));
                // sshd checks for its privilege separation directory at start; Debian's package only creates it
                // from its systemd unit.
                Path privsep = Files.createDirectories(Path.of("/run/sshd"));
                Files.setPosixFilePermissions(privsep, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the sshd work directory " + workDir, e);
        }
        user = root ? LocalUser.ensure(options.user(), options.password()) : LocalUser.existing(options.user());
        hostKey = HostKey.generate(workDir, options.hostKeyType());
        cli = ApcCli.install(workDir, options.outlets());
        giveToLoginUser(cli.stateDirectory());
    }

    /** Sessions run as the login user, who must reach the script and state through every parent directory. */
    private void checkSearchableByOthers() throws IOException {
        for (Path parent = workDir.getParent(); parent != null; parent = parent.getParent()) {
            if (!Files.getPosixFilePermissions(parent).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new IllegalStateException("user " + user() + " cannot reach the sshd work directory " + workDir
                        + ": its parent " + parent + " has mode "
                        + PosixFilePermissions.toString(Files.getPosixFilePermissions(parent)) + " (not searchable "
                        + "by others); use a directory whose parents others may search, such as a JUnit @TempDir "
                        + "itself rather than a folder inside it");
            }
        }
    }

    private void giveToLoginUser(Path file) {
        if (!root) {
            return;
        }
        try {
            UserPrincipal owner = file.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(options.user());
            Files.setOwner(file, owner);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + file + " to user " + options.user(), e);
        }
    }

    private void launch() {
        sshd = SshdProcess.start(executable, configFile, logFile, candidate -> new SshdConfig(workDir, candidate,
                user(), hostKey.privateKey(), cli.script()).text(), START_TIMEOUT);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            // at shutdown or after a failed start nobody can act on it; a failed start reports its own cause
        }
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this sshd server is closed: " + this);
        }
    }
}
