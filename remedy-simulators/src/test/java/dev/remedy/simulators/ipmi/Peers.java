package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.simulators.PeerCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs the IPMI peers the ITs talk to ({@code ipmitool}, {@code ipmipower}) as bounded child processes. Secrets
 * go through the environment or a private file, never through the command line.
 */
final class Peers {

    /** What a peer printed and how it exited. */
    record Result(int exitCode, String output) {
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Peers() {
    }

    /**
     * {@code ipmitool -I lanplus -H host -p port -U user -E -N 1 -R 2 <args>} with the password in
     * {@code IPMI_PASSWORD} (and a Kg, if given, in {@code IPMI_KGKEY} for {@code -K}).
     */
    static Result ipmitool(String host, int port, String user, String password, String kg, String... args) {
        List<String> command = new ArrayList<>(List.of("ipmitool", "-I", "lanplus", "-H", host, "-p",
                String.valueOf(port), "-U", user, "-E", "-N", "1", "-R", "2"));
        command.addAll(Arrays.asList(args));
        Map<String, String> environment = kg == null ? Map.of("IPMI_PASSWORD", password)
                : Map.of("IPMI_PASSWORD", password, "IPMI_KGKEY", kg);
        return run(command, environment, password);
    }

    /** {@code ipmipower -D LAN_2_0 -h host:port --config-file <private file with user and password> <args>}. */
    static Result ipmipower(Path workDir, String host, int port, String user, String password, String... args) {
        try {
            Path config = Files.createTempFile(workDir, "freeipmi", ".conf");
            Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
            Files.writeString(config, "username " + user + "\npassword " + password + "\n", StandardCharsets.US_ASCII);
            List<String> command = new ArrayList<>(List.of("ipmipower", "--config-file=" + config, "-D", "LAN_2_0",
                    "-h", host + ":" + port));
            command.addAll(Arrays.asList(args));
            return run(command, Map.of(), password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Result run(List<String> command, Map<String, String> environment, String secret) {
        assertThat(command).as("the command line never holds the password").noneMatch(arg -> arg.contains(secret));
        try {
            PeerCommand.Result result = new PeerCommand(command, environment, "", TIMEOUT).run();
            if (result.timedOut()) {
                throw new AssertionError(result.output() + ": " + command);
            }
            return new Result(result.exitCode(), result.output());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }
}
