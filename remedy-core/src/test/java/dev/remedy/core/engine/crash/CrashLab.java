package dev.remedy.core.engine.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remedy.core.engine.crash.JournalLine.Event;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * The world of a crash campaign, kept in one directory so that it outlives the engine process that acts on it:
 * {@value #STORE}/ (the engine's JSON state store), {@value #JOURNAL} (one line per effect, see {@link JournalLine})
 * and {@value #MACHINES}/ (one power file per machine).
 *
 * <p>A power change is committed by its journal line, which is forced to disk before the power file is replaced
 * and before the change is acknowledged; a process killed between the two leaves a power file one change behind,
 * which {@link #open} brings up to date from the journal, as the machine itself would have switched. A machine
 * starts ON with its node failed (NotReady); the node is Ready {@link #BOOT_TIME} after the machine is powered on
 * again.
 *
 * <p>An instance is the engine process's side (thread-safe); the static readers are the checking test's side, used
 * while no engine process runs.
 */
final class CrashLab {

    /** The state store's directory. */
    static final String STORE = "store";
    /** The journal file. */
    static final String JOURNAL = "journal.log";
    /** The directory of the power files. */
    static final String MACHINES = "machines";
    /** How long a node takes to be Ready after its machine is powered on. */
    static final Duration BOOT_TIME = Duration.ofMillis(200);

    private static final Machine FAILED = new Machine(PowerState.ON, 0, 0);

    private final Path machineDirectory;
    private final FileChannel journal;
    private final long pid = ProcessHandle.current().pid();
    private final Map<String, Machine> machines;

    private CrashLab(Path directory, Map<String, Machine> machines) throws IOException {
        this.machineDirectory = directory.resolve(MACHINES);
        this.machines = new ConcurrentHashMap<>(machines);
        this.journal = FileChannel.open(directory.resolve(JOURNAL), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /**
     * A machine's power and how it got there.
     *
     * @param power       ON or OFF
     * @param sinceMillis when it entered that state (0: never switched)
     * @param boots       how many times it was powered on again
     */
    record Machine(PowerState power, long sinceMillis, int boots) {

        static Machine parse(String text) {
            String[] parts = text.trim().split(" ");
            return new Machine(PowerState.valueOf(parts[0]), Long.parseLong(parts[1]), Integer.parseInt(parts[2]));
        }

        String format() {
            return power + " " + sinceMillis + " " + boots + "\n";
        }

        /** This machine after the journaled command {@code line}. */
        Machine after(JournalLine line) {
            PowerState to = PowerState.valueOf(line.field("to"));
            return to == power ? this : new Machine(to, line.millis(), boots + (to == PowerState.ON ? 1 : 0));
        }
    }

    /** The names of a campaign's {@code count} nodes. */
    static List<String> nodes(int count) {
        return IntStream.range(0, count).mapToObj(i -> String.format("node-%02d", i)).toList();
    }

    /**
     * Opens the lab in {@code directory} for an engine process: brings the power files up to date with the journal
     * and journals the start.
     */
    static CrashLab open(Path directory, List<String> nodes) {
        try {
            Map<String, Machine> machines = replay(readJournal(directory), nodes);
            Files.createDirectories(directory.resolve(MACHINES));
            for (Map.Entry<String, Machine> machine : machines.entrySet()) {
                Path file = directory.resolve(MACHINES).resolve(machine.getKey());
                if (!machine.getValue().equals(readMachine(file))) {
                    writeMachine(file, machine.getValue());
                }
            }
            CrashLab lab = new CrashLab(directory, machines);
            lab.append(Event.START, JournalLine.NO_NODE, "nodes", String.valueOf(nodes.size()));
            return lab;
        } catch (IOException e) {
            throw new UncheckedIOException("could not open the crash lab in " + directory + ": " + e, e);
        }
    }

    /** Sends a power command to the machine of {@code node}; returns the power it had. */
    synchronized PowerState switchPower(String node, PowerState wanted) {
        Machine before = machine(node);
        JournalLine line = append(Event.POWER, node, "from", before.power().name(), "to", wanted.name());
        Machine after = before.after(line);
        if (!after.equals(before)) {
            writeMachine(machineDirectory.resolve(node), after);
            machines.put(node, after);
        }
        return before.power();
    }

    /** Reads the power of the machine of {@code node}. */
    synchronized PowerState readPower(String node) {
        PowerState power = machine(node).power();
        append(Event.STATUS, node, "power", power.name());
        return power;
    }

    /** When the node booted, if it is Ready now: powered on again at least {@link #BOOT_TIME} ago. */
    Optional<Instant> bootedIfReady(String node, Instant now) {
        Machine machine = machine(node);
        Instant since = Instant.ofEpochMilli(machine.sinceMillis());
        boolean ready = machine.power() == PowerState.ON && machine.boots() > 0 && !now.isBefore(since.plus(BOOT_TIME));
        return ready ? Optional.of(since) : Optional.empty();
    }

    /** Journals a decision that started a new flow; {@code previous} is the stage of the record it replaced. */
    void decided(String node, Instant decidedAt, String previous) {
        append(Event.DECIDE, node, "decidedAt", decidedAt.toString(), "previous", previous);
    }

    /** Journals the record of {@code node} as saved on disk. */
    void saved(String node, Optional<NodeFence> record) {
        append(Event.RECORD, node,
                "stage", record.map(r -> r.stage().code()).orElse("none"),
                "confirmation", record.flatMap(NodeFence::confirmation).map(c -> c.kind().name()).orElse("none"),
                "released", record.map(r -> String.valueOf(r.released())).orElse("none"),
                "version", record.map(r -> String.valueOf(r.version())).orElse("none"));
    }

    /** Appends a line and forces it to disk. */
    synchronized JournalLine append(Event event, String node, String... keyValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            fields.put(keyValues[i], keyValues[i + 1]);
        }
        JournalLine line = new JournalLine(System.currentTimeMillis(), pid, event, node, fields);
        try {
            ByteBuffer bytes = ByteBuffer.wrap((line.format() + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                journal.write(bytes);
            }
            journal.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("could not journal " + line + ": " + e, e);
        }
        return line;
    }

    private Machine machine(String node) {
        Machine machine = machines.get(node);
        if (machine == null) {
            throw new IllegalArgumentException("the crash lab has no machine for node " + node);
        }
        return machine;
    }

    // ---- the checking side: read while no engine process runs ----

    /** Every line of the journal in {@code directory}, oldest first (none if there is no journal yet). */
    static List<JournalLine> readJournal(Path directory) {
        try {
            return Files.readAllLines(directory.resolve(JOURNAL), StandardCharsets.UTF_8).stream()
                    .map(JournalLine::parse).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the journal in " + directory + ": " + e, e);
        }
    }

    /** The machines of {@code nodes} as the journal leaves them. */
    static Map<String, Machine> replay(List<JournalLine> journal, List<String> nodes) {
        Map<String, Machine> machines = new TreeMap<>();
        nodes.forEach(node -> machines.put(node, FAILED));
        for (JournalLine line : journal) {
            if (line.event() == Event.POWER) {
                machines.computeIfPresent(line.node(), (node, machine) -> machine.after(line));
            }
        }
        return machines;
    }

    /** The power of each machine of {@code nodes} as its power file says. */
    static Map<String, PowerState> readPowerFiles(Path directory, List<String> nodes) {
        Map<String, PowerState> power = new TreeMap<>();
        nodes.forEach(node -> power.put(node, readMachine(directory.resolve(MACHINES).resolve(node)).power()));
        return power;
    }

    /**
     * A record file of the store, as far as the campaign reads it.
     *
     * @param stage     the stage code
     * @param operation the operation in flight (an agent action or a cluster action code), if any
     */
    record SavedRecord(String stage, Optional<String> operation) {
    }

    /**
     * Every record file in the store, by node, read as plain JSON (opening a second store on the directory is what
     * the campaign must never do).
     *
     * @throws IllegalStateException naming a record file that is not a readable record
     */
    static Map<String, SavedRecord> readRecords(Path directory) {
        Map<String, SavedRecord> records = new TreeMap<>();
        Path store = directory.resolve(STORE);
        if (!Files.isDirectory(store)) {
            return records;
        }
        ObjectMapper json = new ObjectMapper();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(store, "*.json")) {
            for (Path file : files) {
                JsonNode record;
                try {
                    record = json.readTree(file.toFile());
                } catch (IOException e) {
                    throw new IllegalStateException("record file " + file + " is not readable JSON: " + e, e);
                }
                if (record == null || !record.hasNonNull("node") || !record.hasNonNull("stage")) {
                    throw new IllegalStateException("record file " + file + " has no node or no stage: " + record);
                }
                JsonNode op = record.path("inFlight");
                Optional<String> operation = op.isObject()
                        ? Optional.of(op.hasNonNull("action") ? op.get("action").asText() : op.path("cluster").asText())
                        : Optional.empty();
                records.put(record.get("node").asText(), new SavedRecord(record.get("stage").asText(), operation));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not list the store " + store + ": " + e, e);
        }
        return records;
    }

    /** The stage code of every record file in the store, by node (see {@link #readRecords}). */
    static Map<String, String> readRecordStages(Path directory) {
        Map<String, String> stages = new TreeMap<>();
        readRecords(directory).forEach((node, record) -> stages.put(node, record.stage()));
        return stages;
    }

    private static Machine readMachine(Path file) {
        try {
            return Machine.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return FAILED;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the power file " + file + ": " + e, e);
        }
    }

    private static void writeMachine(Path file, Machine machine) {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temp, machine.format(), StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the power file " + file + ": " + e, e);
        }
    }
}
