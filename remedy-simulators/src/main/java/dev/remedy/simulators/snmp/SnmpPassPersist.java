package dev.remedy.simulators.snmp;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The emulated device behind Debian's snmpd: a program for snmpd's {@code pass_persist} directive that serves one
 * {@link SnmpStateFile}. It speaks net-snmp's line protocol on standard input and output: {@code PING} answered
 * {@code PONG}; {@code get} and {@code getnext} with an OID, answered with the OID, the type and the value on three
 * lines or {@code NONE}; {@code set} with an OID and {@code <type> <value>}, answered {@code DONE} or the error
 * ({@code not-writable}, {@code wrong-type}, {@code wrong-value}, {@code inconsistent-value}, and
 * {@code gen-error} when the state file fails). It answers only inside its kind's subtrees, so snmpd's own MIB
 * (the system group) stays snmpd's. Blank lines are skipped (snmpd 5.9.3 ends a set with one); the end of input
 * ends it; problems go to a log file.
 *
 * <p>Usage: {@code java -cp <classpath> dev.remedy.simulators.snmp.SnmpPassPersist <state file> <log file>}.
 */
public final class SnmpPassPersist {

    private final Function<Function<SnmpDevice, String>, String> access;
    private final List<Oid> subtrees;
    private final PrintStream log;

    /**
     * @param access runs a function on the device (under the state file's lock) and returns what it returns
     * @param subtrees the subtrees snmpd hands over
     * @param log where problems are written
     */
    SnmpPassPersist(Function<Function<SnmpDevice, String>, String> access, List<Oid> subtrees, PrintStream log) {
        this.access = access;
        this.subtrees = List.copyOf(subtrees);
        this.log = log;
    }

    /**
     * Serves the state file named by the first argument on standard input and output until snmpd closes them,
     * appending problems to the log file named by the second. Nothing goes to standard error: snmpd hands the
     * program's standard error to the same pipe as its standard output, where a line would be read as an answer.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: java " + SnmpPassPersist.class.getName()
                    + " <state file> <log file>");
        }
        try (PrintStream log = new PrintStream(new FileOutputStream(args[1], true), true, StandardCharsets.UTF_8)) {
            SnmpStateFile state = SnmpStateFile.open(Path.of(args[0]));
            SnmpPassPersist front = new SnmpPassPersist(action -> state.update(Clock.systemUTC(), action),
                    state.spec().kind().subtrees(), log);
            front.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)),
                    new OutputStreamWriter(System.out, StandardCharsets.US_ASCII));
        }
    }

    /** Answers requests from {@code in} on {@code out} until the end of {@code in}. */
    void serve(BufferedReader in, Writer out) throws IOException {
        String command;
        while ((command = in.readLine()) != null) {
            if (command.isEmpty()) {
                // snmpd ends a set with a blank line: nothing to answer.
                continue;
            }
            String answer = switch (command) {
                case "PING" -> "PONG";
                case "get" -> get(readLine(in));
                case "getnext" -> next(readLine(in));
                case "set" -> set(readLine(in), readLine(in));
                default -> {
                    log.println("pass_persist: unknown command '" + command + "' ignored");
                    yield "NONE";
                }
            };
            out.write(answer + "\n");
            out.flush();
        }
    }

    private String get(String oidText) {
        Optional<Oid> oid = parse(oidText);
        if (oid.isEmpty() || subtreeOf(oid.get()).isEmpty()) {
            return "NONE";
        }
        return guarded(device -> device.get(oid.get()).map(SnmpPassPersist::format).orElse("NONE"), "NONE");
    }

    private String next(String oidText) {
        Optional<Oid> oid = parse(oidText);
        if (oid.isEmpty()) {
            return "NONE";
        }
        Optional<Oid> inside = subtreeOf(oid.get());
        // Before a subtree, the walk enters it at its root (no subtree root is an instance itself).
        Optional<Oid> subtree = inside.or(() -> subtrees.stream()
                .filter(candidate -> candidate.compareTo(oid.get()) > 0).min(Oid::compareTo));
        if (subtree.isEmpty()) {
            return "NONE";
        }
        Oid from = inside.isPresent() ? oid.get() : subtree.get();
        return guarded(device -> device.next(from).filter(next -> next.oid().startsWith(subtree.get()))
                .map(SnmpPassPersist::format).orElse("NONE"), "NONE");
    }

    private String set(String oidText, String typedValue) {
        Optional<Oid> oid = parse(oidText);
        if (oid.isEmpty() || subtreeOf(oid.get()).isEmpty()) {
            return SnmpError.NOT_WRITABLE.passPersistWord();
        }
        Optional<SnmpValue> value = value(typedValue);
        if (value.isEmpty()) {
            return SnmpError.WRONG_TYPE.passPersistWord();
        }
        return guarded(device -> {
            try {
                device.set(oid.get(), value.get());
                return "DONE";
            } catch (SnmpSetException e) {
                log.println("pass_persist: set refused: " + e.getMessage());
                return e.error().passPersistWord();
            }
        }, "gen-error");
    }

    /** Runs {@code action} on the device; a failing state file is logged and answered {@code failure}. */
    private String guarded(Function<SnmpDevice, String> action, String failure) {
        try {
            return access.apply(action);
        } catch (RuntimeException e) {
            log.println("pass_persist: " + e);
            return failure;
        }
    }

    private Optional<Oid> subtreeOf(Oid oid) {
        return subtrees.stream().filter(oid::startsWith).findFirst();
    }

    private Optional<Oid> parse(String text) {
        try {
            return Optional.of(Oid.parse(text.strip()));
        } catch (IllegalArgumentException e) {
            log.println("pass_persist: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** {@code integer 2}, {@code string "text"}, {@code objectid ".1.3"}; other types are none of the device's. */
    private Optional<SnmpValue> value(String typedValue) {
        String[] parts = typedValue.strip().split(" ", 2);
        String text = parts.length == 2 ? unquote(parts[1]) : "";
        try {
            return switch (parts[0].toLowerCase(Locale.ROOT)) {
                case "integer" -> Optional.of(new SnmpValue(SnmpValue.Type.INTEGER, text));
                case "string" -> Optional.of(SnmpValue.string(text));
                case "objectid" -> Optional.of(new SnmpValue(SnmpValue.Type.OBJECT_ID, text));
                default -> Optional.empty();
            };
        } catch (IllegalArgumentException e) {
            log.println("pass_persist: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static String unquote(String text) {
        return text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")
                ? text.substring(1, text.length() - 1) : text;
    }

    private static String format(VarBind binding) {
        return binding.oid() + "\n" + binding.value().type().passPersistName() + "\n" + binding.value().text();
    }

    private static String readLine(BufferedReader in) throws IOException {
        String line = in.readLine();
        return line == null ? "" : line;
    }
}
