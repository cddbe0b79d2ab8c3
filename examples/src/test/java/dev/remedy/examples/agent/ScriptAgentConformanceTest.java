package dev.remedy.examples.agent;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.FenceAgentConformanceKit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

/** The example agent keeps the whole contract, driving a real shell script that keeps power state in a file. */
class ScriptAgentConformanceTest extends FenceAgentConformanceKit {

    private static final String PASSWORD = "script-agent-password";

    @TempDir
    static Path dir;

    private final String plug = "outlet-" + UUID.randomUUID();
    private final Path powerSwitch = script("power-switch.sh", """
            #!/bin/sh
            dir='%s'
            [ "$REMEDY_PASSWORD" = "%s" ] || { echo "login refused"; exit 3; }
            case "$1" in
              status) cat "$dir/$2.state" 2>/dev/null || echo on ;;
              on|off) echo "$1" > "$dir/$2.state"; echo "$1" >> "$dir/$2.history" ;;
              *) exit 2 ;;
            esac
            """.formatted(dir, PASSWORD));
    private final Path deadSwitch = script("dead-switch.sh", "#!/bin/sh\nexec sleep 600\n");

    @Override
    protected FenceAgentProvider provider() {
        return new ScriptFenceAgentProvider();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config(powerSwitch, PASSWORD);
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config(deadSwitch, PASSWORD);
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config(powerSwitch, "not-the-password"));
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(1);
    }

    @Override
    protected PowerTarget target() {
        return new PowerTarget() {
            @Override
            public PowerState power() {
                Path state = dir.resolve(plug + ".state");
                return Files.exists(state) && read(state).trim().equals("off") ? PowerState.OFF : PowerState.ON;
            }

            @Override
            public void power(PowerState state) {
                write(dir.resolve(plug + ".state"), state.name().toLowerCase(Locale.ROOT) + "\n");
            }

            @Override
            public List<PowerState> history() {
                Path history = dir.resolve(plug + ".history");
                return !Files.exists(history) ? List.of()
                        : read(history).lines().map(l -> PowerState.valueOf(l.trim().toUpperCase(Locale.ROOT))).toList();
            }

            @Override
            public void clearHistory() {
                write(dir.resolve(plug + ".history"), "");
            }
        };
    }

    private AgentConfig config(Path command, String password) {
        return provider().configure().set("command", command.toString()).set("plug", plug)
                .secret("password", Secret.of(password)).set("poll_interval", "100ms").build();
    }

    private static Path script(String name, String text) {
        Path path = dir.resolve(name);
        write(path, text);
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return path;
    }

    private static String read(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path path, String text) {
        try {
            Files.writeString(path, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
