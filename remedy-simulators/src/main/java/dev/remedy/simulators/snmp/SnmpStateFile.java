package dev.remedy.simulators.snmp;

import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One emulated device kept in a text file, so that several processes share it: the pass_persist front behind
 * snmpd switches outlets in it, and a test reads and sets them through {@link #outlet(int)}. Every access locks
 * the file (a lock file next to it, {@code <file>.lock}, locked across processes and threads), reads the device,
 * acts, and writes it back by renaming a new file over the old one.
 *
 * <p>The file holds the device's spec on its first line and one line per outlet: its power, its history and its
 * changes to come with their instants, e.g. {@code 2 OFF history=OFF pending=2026-01-01T00:00:05Z/ON}. Changes take
 * effect on whichever clock the next access brings; processes must share a wall clock ({@link Clock#systemUTC()}).
 */
public final class SnmpStateFile {

    private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final Path lockFile;
    private final SnmpDeviceSpec spec;

    private SnmpStateFile(Path file, SnmpDeviceSpec spec) {
        this.file = file;
        this.lockFile = file.resolveSibling(file.getFileName() + ".lock");
        this.spec = spec;
    }

    /**
     * Writes a new state file for {@code spec} with every outlet on (replacing any file there).
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static SnmpStateFile create(Path file, SnmpDeviceSpec spec) {
        SnmpStateFile state = new SnmpStateFile(file.toAbsolutePath().normalize(), Objects.requireNonNull(spec));
        state.locked(() -> {
            state.write(SnmpDevice.create(spec, Clock.systemUTC()));
            return null;
        });
        return state;
    }

    /**
     * Opens an existing state file.
     *
     * @throws UncheckedIOException if it cannot be read
     * @throws IllegalArgumentException if its first line is not a device spec
     */
    public static SnmpStateFile open(Path file) {
        Path path = file.toAbsolutePath().normalize();
        String first;
        try {
            first = Files.readAllLines(path, StandardCharsets.UTF_8).stream().findFirst().orElse("");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the SNMP device state file " + path, e);
        }
        return new SnmpStateFile(path, parseSpec(path, first));
    }

    /** The file. */
    public Path path() {
        return file;
    }

    /** The device the file holds. */
    public SnmpDeviceSpec spec() {
        return spec;
    }

    /**
     * Reads the device under the lock, applies {@code action} with time from {@code clock}, and writes the device
     * back (also when {@code action} throws, since reading may have let queued changes take effect).
     *
     * @throws UncheckedIOException if the file cannot be read or written
     * @throws IllegalStateException if the file is damaged, naming the line
     */
    public <T> T update(Clock clock, Function<SnmpDevice, T> action) {
        return locked(() -> {
            SnmpDevice device = read(clock);
            try {
                return action.apply(device);
            } finally {
                write(device);
            }
        });
    }

    /** Outlet (port) {@code number} as a test sees it, through this file on the system clock. */
    public PowerTarget outlet(int number) {
        if (number < 1 || number > spec.outlets()) {
            throw new IllegalArgumentException("device " + spec.name() + " has outlets 1 to " + spec.outlets()
                    + ", not " + number);
        }
        return new PowerTarget() {
            @Override
            public PowerState power() {
                return update(Clock.systemUTC(), device -> device.outlet(number).power());
            }

            @Override
            public void power(PowerState state) {
                update(Clock.systemUTC(), device -> {
                    device.outlet(number).power(state);
                    return null;
                });
            }

            @Override
            public List<PowerState> history() {
                return update(Clock.systemUTC(), device -> device.outlet(number).history());
            }

            @Override
            public void clearHistory() {
                update(Clock.systemUTC(), device -> {
                    device.outlet(number).clearHistory();
                    return null;
                });
            }

            @Override
            public String toString() {
                return "outlet " + number + " of " + spec.name() + " in " + file;
            }
        };
    }

    private <T> T locked(Supplier<T> body) {
        synchronized (LOCKS.computeIfAbsent(file, path -> new Object())) {
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = channel.lock()) {
                return body.get();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lock the SNMP device state file " + lockFile, e);
            }
        }
    }

    private SnmpDevice read(Clock clock) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the SNMP device state file " + file, e);
        }
        SnmpDevice device = SnmpDevice.create(spec, clock);
        if (lines.size() != spec.outlets() + 1) {
            throw new IllegalStateException("SNMP device state file " + file + " has " + (lines.size() - 1)
                    + " outlet lines instead of " + spec.outlets() + "; recreate it with SnmpStateFile.create");
        }
        for (int n = 1; n <= spec.outlets(); n++) {
            OutletLine.parse(file, n, lines.get(n)).restore(device.outlet(n));
        }
        return device;
    }

    private void write(SnmpDevice device) {
        StringBuilder text = new StringBuilder(formatSpec(spec)).append('\n');
        for (SnmpOutlet outlet : device.outlets()) {
            text.append(OutletLine.of(outlet).format()).append('\n');
        }
        try {
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".tmp");
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the SNMP device state file " + file, e);
        }
    }

    private static String formatSpec(SnmpDeviceSpec spec) {
        return "device " + spec.name() + " " + spec.kind().name() + " " + spec.outlets() + " " + spec.rebootDelay();
    }

    private static SnmpDeviceSpec parseSpec(Path file, String line) {
        String[] words = line.split(" ");
        try {
            if (words.length == 5 && words[0].equals("device")) {
                return new SnmpDeviceSpec(words[1], SnmpDeviceKind.valueOf(words[2]), Integer.parseInt(words[3]),
                        Duration.parse(words[4]));
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("SNMP device state file " + file + " starts with '" + line
                    + "', not a device spec: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("SNMP device state file " + file + " starts with '" + line
                + "' instead of 'device <name> <kind> <outlets> <reboot delay>'; recreate it with "
                + "SnmpStateFile.create");
    }

    /** One outlet's line: {@code <n> ON|OFF history=<states or -> pending=<instant>/<state>,… or ->}. */
    private record OutletLine(int number, PowerState power, List<PowerState> history, List<SnmpOutlet.Change> pending) {

        static OutletLine of(SnmpOutlet outlet) {
            return new OutletLine(outlet.number(), outlet.power(), outlet.history(), outlet.pending());
        }

        void restore(SnmpOutlet outlet) {
            outlet.restore(power, history, pending);
        }

        String format() {
            List<String> changes = pending.stream().map(change -> change.at() + "/" + change.state()).toList();
            return number + " " + power + " history=" + join(history.stream().map(PowerState::name).toList())
                    + " pending=" + join(changes);
        }

        static OutletLine parse(Path file, int number, String line) {
            String[] words = line.split(" ");
            try {
                if (words.length != 4 || Integer.parseInt(words[0]) != number || !words[2].startsWith("history=")
                        || !words[3].startsWith("pending=")) {
                    throw new IllegalArgumentException("expected '" + number + " ON|OFF history=… pending=…'");
                }
                List<PowerState> history = new ArrayList<>();
                for (String state : split(words[2].substring("history=".length()))) {
                    history.add(PowerState.valueOf(state));
                }
                List<SnmpOutlet.Change> pending = new ArrayList<>();
                for (String change : split(words[3].substring("pending=".length()))) {
                    int slash = change.indexOf('/');
                    pending.add(new SnmpOutlet.Change(Instant.parse(change.substring(0, slash)),
                            PowerState.valueOf(change.substring(slash + 1))));
                }
                return new OutletLine(number, PowerState.valueOf(words[1]), history, pending);
            } catch (RuntimeException e) {
                throw new IllegalStateException("SNMP device state file " + file + " is damaged at outlet line "
                        + number + " ('" + line + "'): " + e.getMessage(), e);
            }
        }

        private static String join(List<String> words) {
            return words.isEmpty() ? "-" : String.join(",", words);
        }

        private static List<String> split(String words) {
            return words.equals("-") ? List.of() : List.of(words.split(","));
        }
    }
}
