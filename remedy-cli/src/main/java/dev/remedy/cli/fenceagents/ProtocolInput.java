package dev.remedy.cli.fenceagents;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The options of one call as {@code fencing.py} reads them: from the command line when it has arguments, otherwise
 * from stdin. Names are returned with {@code -} turned into {@code _} (the agents accept both) and values as given;
 * what the names mean is the caller's business.
 */
final class ProtocolInput {

    /** The most stdin may hold: Pacemaker sends a few hundred bytes, more is not a device configuration. */
    static final int MAX_STDIN_CHARS = 64 * 1024;

    /** The short options of fence-agents that remedy's agents have, by the long option they stand for. */
    private static final Map<Character, String> SHORT = Map.ofEntries(Map.entry('o', "action"), Map.entry('n', "plug"),
            Map.entry('a', "ip"), Map.entry('l', "username"), Map.entry('p', "password"), Map.entry('u', "ipport"),
            Map.entry('m', "method"), Map.entry('k', "identity_file"), Map.entry('v', "verbose"),
            Map.entry('q', "quiet"), Map.entry('h', "help"), Map.entry('V', "version"), Map.entry('z', "ssl"),
            Map.entry('P', "lanplus"));

    /** One option: its name ({@code _} for {@code -}), its value, and whether it came from the command line. */
    record Option(String name, String value, boolean onCommandLine) {
    }

    /** The options in the order given, and the warnings about what was ignored (never a value: it may be secret). */
    record Parsed(List<Option> options, List<String> warnings) {
        Parsed {
            options = List.copyOf(options);
            warnings = List.copyOf(warnings);
        }
    }

    private ProtocolInput() {
    }

    /**
     * Reads the command line as {@code getopt.gnu_getopt} does with the agents' options: {@code --name=value},
     * {@code --name value}, {@code -x value}, {@code -xvalue}; a flag ({@code flag} says which names are) takes no
     * value and means {@code 1}. Other arguments are ignored with a warning.
     *
     * @throws IllegalArgumentException if an option that needs a value comes last
     */
    static Parsed commandLine(List<String> args, Predicate<String> flag) {
        List<Option> options = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int unused = 0;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                unused += args.size() - i - 1;
                break;
            }
            if (arg.startsWith("--") && arg.length() > 2) {
                int eq = arg.indexOf('=');
                String name = normalise(arg.substring(2, eq < 0 ? arg.length() : eq));
                if (eq >= 0) {
                    options.add(new Option(name, arg.substring(eq + 1), true));
                } else if (flag.test(name)) {
                    options.add(new Option(name, "1", true));
                } else {
                    options.add(new Option(name, valueAfter(args, ++i, "--" + name), true));
                }
            } else if (arg.startsWith("-") && arg.length() > 1) {
                for (int c = 1; c < arg.length(); c++) {
                    String name = SHORT.get(arg.charAt(c));
                    if (name == null) {
                        warnings.add("ignoring unknown option '-" + arg.charAt(c) + "'");
                    } else if (flag.test(name)) {
                        options.add(new Option(name, "1", true));
                    } else {
                        String value = c + 1 < arg.length() ? arg.substring(c + 1)
                                : valueAfter(args, ++i, "-" + arg.charAt(c));
                        options.add(new Option(name, value, true));
                        break;
                    }
                }
            } else {
                unused++;
            }
        }
        if (unused > 0) {
            warnings.add("ignoring " + unused + " argument(s) that are not options (not repeated here: one may be a "
                    + "secret)");
        }
        return new Parsed(options, warnings);
    }

    /**
     * Reads {@code key=value} lines as Pacemaker's fencer writes them: blank lines and lines starting with {@code #}
     * are skipped, surrounding whitespace is dropped, a value in double quotes loses them, a line without {@code =}
     * has an empty value.
     *
     * @throws IOException if stdin cannot be read, or holds more than {@link #MAX_STDIN_CHARS}
     */
    static Parsed stdin(Reader in) throws IOException {
        char[] buffer = new char[MAX_STDIN_CHARS + 1];
        int length = 0;
        for (int n; length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
            length += n;
        }
        if (length > MAX_STDIN_CHARS) {
            throw new IOException("stdin holds more than " + MAX_STDIN_CHARS + " characters; give the options as "
                    + "key=value lines, one per line");
        }
        List<Option> options = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new java.io.CharArrayReader(buffer, 0, length))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                int eq = text.indexOf('=');
                String name = eq < 0 ? text : text.substring(0, eq);
                String value = eq < 0 ? "" : text.substring(eq + 1);
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                options.add(new Option(normalise(name.strip()), value, false));
            }
        }
        return new Parsed(options, List.of());
    }

    private static String valueAfter(List<String> args, int index, String option) {
        if (index >= args.size()) {
            throw new IllegalArgumentException("option " + option + " requires a value");
        }
        return args.get(index);
    }

    private static String normalise(String name) {
        return name.replace('-', '_');
    }
}
