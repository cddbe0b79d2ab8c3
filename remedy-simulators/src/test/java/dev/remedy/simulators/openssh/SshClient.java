package dev.remedy.simulators.openssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The real OpenSSH client ({@code ssh}, and {@code sshpass} for passwords) pointed at an
 * {@link OpenSshServerProcess}, as bounded child processes: no user configuration ({@code -F /dev/null}), strict
 * host key checking against a known_hosts file the test writes. The password only travels in {@code SSHPASS}.
 */
final class SshClient {

    /** What ssh printed (standard output and error) and how it exited. */
    record Result(int exitCode, String output) {
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final OpenSshServerProcess server;
    private final Path knownHosts;

    SshClient(OpenSshServerProcess server, Path knownHosts) {
        this.server = server;
        this.knownHosts = knownHosts;
    }

    /** Makes an Ed25519 client key pair without passphrase in {@code dir}; returns the private key file. */
    static Path newKey(Path dir, String name) {
        Path key = dir.resolve(name);
        PeerCommand.Result result = run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "remedy-it",
                "-f", key.toString()), Map.of(), "");
        assertThat(result.exitCode()).as(result.output()).isZero();
        return key;
    }

    /** Writes a known_hosts file holding {@code line}. */
    static Path knownHosts(Path dir, String name, String line) {
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, line + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** {@code ssh -i key -o BatchMode=yes <sshArgs…> -l user 127.0.0.1 <remoteCommand…>} with {@code stdin}. */
    Result withKey(Path key, String stdin, List<String> sshArgs, String... remoteCommand) {
        List<String> command = new ArrayList<>(List.of("ssh", "-i", key.toString(), "-o", "IdentitiesOnly=yes",
                "-o", "BatchMode=yes", "-o", "PasswordAuthentication=no"));
        command.addAll(common(sshArgs));
        command.addAll(Arrays.asList(remoteCommand));
        PeerCommand.Result result = run(command, Map.of(), stdin);
        return new Result(result.exitCode(), result.output());
    }

    /** {@code sshpass -e ssh -o PreferredAuthentications=password <sshArgs…> … <remoteCommand…>}, password in SSHPASS. */
    Result withPassword(String password, String stdin, List<String> sshArgs, String... remoteCommand) {
        List<String> command = new ArrayList<>(List.of("sshpass", "-e", "ssh", "-o", "BatchMode=no", "-o",
                "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password", "-o",
                "NumberOfPasswordPrompts=1"));
        command.addAll(common(sshArgs));
        command.addAll(Arrays.asList(remoteCommand));
        assertThat(command).as("the command line never holds the password").noneMatch(arg -> arg.contains(password));
        PeerCommand.Result result = run(command, Map.of("SSHPASS", password), stdin);
        return new Result(result.exitCode(), result.output());
    }

    /** The options both ways in share, then {@code sshArgs}, then the destination. */
    private List<String> common(List<String> sshArgs) {
        List<String> common = new ArrayList<>(List.of("-F", "/dev/null", "-o", "UserKnownHostsFile=" + knownHosts,
                "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes", "-o", "ConnectTimeout=10",
                "-p", String.valueOf(server.port())));
        common.addAll(sshArgs);
        common.addAll(List.of("-l", server.user(), server.host()));
        return common;
    }

    private static PeerCommand.Result run(List<String> command, Map<String, String> environment, String stdin) {
        try {
            PeerCommand.Result result = new PeerCommand(command, environment, stdin, TIMEOUT).run();
            if (result.timedOut()) {
                throw new AssertionError(result.output() + ": " + command);
            }
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }
}
