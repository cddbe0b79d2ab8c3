package dev.remedy.fence.clusterlabs;

import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fake ClusterLabs agent of {@code src/test/resources/fake/fence_fake} (a Python 3 script that speaks the
 * fence-agents protocol), copied executable into a directory under a name, with its power state, its control file
 * and its log of runs. Also the {@link PowerTarget} of the machine it fences.
 */
final class FakeAgent implements PowerTarget {

    private static final Pattern RECORD = Pattern.compile("\\{\"action\": \"([^\"]*)\", \"pid\": (\\d+), \"pgid\": (\\d+),"
            + " \"cmdline\": (\\[.*?\\]), \"environ\": (\\[.*?\\]), \"options\": (\\{.*\\})\\}");

    private final Path directory;
    private final String name;

    private FakeAgent(Path directory, String name) {
        this.directory = directory;
        this.name = name;
    }

    /** Copies the fake into {@code directory} as {@code name}, executable, powered on. */
    static FakeAgent install(Path directory, String name) {
        try (InputStream script = FakeAgent.class.getResourceAsStream("/fake/fence_fake")) {
            Path target = directory.resolve(name);
            Files.copy(script, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
            return new FakeAgent(directory, name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String name() {
        return name;
    }

    Path directory() {
        return directory;
    }

    /** Adds {@code ACTION.KEY=VALUE} lines to the control file. */
    FakeAgent control(String... lines) {
        write(name + ".control", String.join("\n", lines) + "\n", StandardOpenOption.APPEND);
        return this;
    }

    /** The fake's runs, in order. */
    List<Run> runs() {
        Path log = directory.resolve(name + ".log");
        if (!Files.exists(log)) {
            return List.of();
        }
        return read(log).lines().map(line -> {
            Matcher m = RECORD.matcher(line);
            if (!m.matches()) {
                throw new IllegalStateException("unexpected log line of the fake agent: " + line);
            }
            return new Run(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), m.group(4), m.group(5),
                    m.group(6));
        }).toList();
    }

    /** The actions the fake ran, in order. */
    List<String> actions() {
        return runs().stream().map(Run::action).toList();
    }

    /** The agent's and its child's process ids, once a hanging run wrote them. */
    List<Long> hangingPids() {
        Path pids = directory.resolve(name + ".pids");
        return Files.exists(pids) ? List.of(read(pids).trim().split(" ")).stream().map(Long::parseLong).toList()
                : List.of();
    }

    @Override
    public PowerState power() {
        Path state = directory.resolve(name + ".state");
        return !Files.exists(state) || read(state).trim().equals("on") ? PowerState.ON : PowerState.OFF;
    }

    @Override
    public void power(PowerState state) {
        if (state != power()) {
            write(name + ".history", state.name() + "\n", StandardOpenOption.APPEND);
        }
        write(name + ".state", state.name().toLowerCase(Locale.ROOT), StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public List<PowerState> history() {
        Path history = directory.resolve(name + ".history");
        return Files.exists(history) ? read(history).lines().map(PowerState::valueOf).toList() : List.of();
    }

    @Override
    public void clearHistory() {
        write(name + ".history", "", StandardOpenOption.TRUNCATE_EXISTING);
    }

    private void write(String file, String text, StandardOpenOption mode) {
        try {
            Files.writeString(directory.resolve(file), text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, mode);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One run of the fake, as it logged it.
     *
     * @param action  the action it was given
     * @param pid     its process id
     * @param pgid    its process group
     * @param cmdline its {@code /proc/self/cmdline}, as a JSON list
     * @param environ its {@code /proc/self/environ}, as a JSON list
     * @param options the options it read on standard input, as a JSON object
     */
    record Run(String action, long pid, long pgid, String cmdline, String environ, String options) {
    }
}
