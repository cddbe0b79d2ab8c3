package dev.remedy.simulators.ssh;

import dev.remedy.spi.PowerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Cisco IOS-style switch CLI in privileged exec, or, with an enable secret, in user exec ({@code remedy-sw1>}: the
 * {@code show} commands, {@code terminal length}, {@code exit} and {@code enable}, which asks {@code Password: }
 * without echo, three times at most, then says {@code % Bad secrets}). Privileged exec has {@code terminal length},
 * {@code show interfaces status}, {@code show interfaces <if> status}, {@code write memory} (saves the running
 * configuration, so that it survives {@link SimulatedDevice#reload()}; with confirmations, only after {@code [confirm]}
 * is answered by a bare Enter), {@code configure terminal}, then {@code interface <if>}, {@code shutdown}, {@code no
 * shutdown}, {@code exit} and {@code end}. Keywords are case-insensitive and never abbreviated; an interface is its
 * full name or its short {@code Gi1/0/N}. Anything else is invalid input, with the caret under the first word that fits
 * no command.
 */
final class IosCli implements DeviceCli {

    static final String HOSTNAME = "remedy-sw1";
    static final String MORE = " --More-- ";
    static final String HEADER = row("Port", "Name", "Status", "Vlan", "Duplex", "Speed", "Type");
    private static final String SHORT_INTERFACE = "Gi1/0/";
    private static final String INTERFACE = "<if>";
    private static final String NUMBER = "<n>";
    private static final int MAX_LENGTH = 512;
    private static final Pattern WORD = Pattern.compile("\\S+");

    static final String OVERWRITE = "Overwrite the previous NVRAM configuration?[confirm]";
    static final String PASSWORD = "Password: ";
    private static final int PASSWORD_TRIES = 3;

    private enum Mode {
        USER(">", List.of(List.of("terminal", "length", NUMBER), List.of("show", "interfaces", "status"),
                List.of("show", "interfaces", INTERFACE, "status"), List.of("enable"), List.of("exit"))),
        EXEC("#", List.of(List.of("terminal", "length", NUMBER), List.of("show", "interfaces", "status"),
                List.of("show", "interfaces", INTERFACE, "status"), List.of("configure", "terminal"),
                List.of("write", "memory"), List.of("exit"))),
        CONFIG("(config)#", List.of(List.of("interface", INTERFACE), List.of("end"), List.of("exit"))),
        CONFIG_IF("(config-if)#", List.of(List.of("shutdown"), List.of("no", "shutdown"),
                List.of("interface", INTERFACE), List.of("end"), List.of("exit")));

        final String prompt;
        final List<List<String>> commands;

        Mode(String prompt, List<List<String>> commands) {
            this.prompt = HOSTNAME + prompt;
            this.commands = commands;
        }
    }

    private final SimulatedDevice device;
    private final boolean confirmations;
    private final String enableSecret;
    private int pageLength;
    private Mode mode;
    private String selected;

    /**
     * @param confirmations whether {@code write memory} asks {@code [confirm]} before it saves
     * @param enableSecret  the secret of {@code enable}, the session then starting in user exec; null: privileged
     */
    IosCli(SimulatedDevice device, int pageLength, boolean confirmations, String enableSecret) {
        this.device = device;
        this.pageLength = pageLength;
        this.confirmations = confirmations;
        this.enableSecret = enableSecret;
        this.mode = enableSecret == null ? Mode.EXEC : Mode.USER;
    }

    @Override
    public String greeting() {
        return "";
    }

    @Override
    public String prompt() {
        return mode.prompt;
    }

    @Override
    public Reply execute(String command) {
        List<String> words = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        Matcher word = WORD.matcher(command);
        while (word.find()) {
            words.add(word.group());
            starts.add(word.start());
        }
        int furthest = 0;
        for (List<String> pattern : mode.commands) {
            int matched = matched(pattern, words);
            if (matched == pattern.size() && matched == words.size()) {
                return run(pattern, words);
            }
            furthest = Math.max(furthest, matched);
        }
        int column = furthest < words.size() ? starts.get(furthest) : command.length();
        return Reply.lines(" ".repeat(mode.prompt.length() + column) + "^",
                "% Invalid input detected at '^' marker.");
    }

    /** How many leading words fit the pattern. */
    private int matched(List<String> pattern, List<String> words) {
        int n = 0;
        while (n < pattern.size() && n < words.size() && fits(pattern.get(n), words.get(n))) {
            n++;
        }
        return n;
    }

    private boolean fits(String expected, String word) {
        return switch (expected) {
            case INTERFACE -> plug(word) != null;
            case NUMBER -> word.matches("\\d{1,3}") && Integer.parseInt(word) <= MAX_LENGTH;
            default -> expected.equalsIgnoreCase(word);
        };
    }

    private Reply run(List<String> pattern, List<String> words) {
        switch (String.join(" ", pattern)) {
            case "terminal length <n>" -> pageLength = Integer.parseInt(words.get(2));
            case "show interfaces status" -> {
                List<String> lines = new ArrayList<>(List.of("", HEADER));
                device.plugs().forEach(plug -> lines.add(status(plug)));
                return Reply.paged(lines, pageLength, MORE);
            }
            case "show interfaces <if> status" -> {
                return Reply.lines("", HEADER, status(plug(words.get(2))));
            }
            case "configure terminal" -> {
                mode = Mode.CONFIG;
                return Reply.lines("Enter configuration commands, one per line.  End with CNTL/Z.");
            }
            case "interface <if>" -> {
                selected = plug(words.get(1));
                mode = Mode.CONFIG_IF;
            }
            case "shutdown" -> device.port(selected).commandSteps(PowerState.OFF);
            case "no shutdown" -> device.port(selected).commandSteps(PowerState.ON);
            case "write memory" -> {
                return confirmations ? Reply.ask(OVERWRITE, answer -> answer.isEmpty() ? save() : Reply.lines())
                        : save();
            }
            case "enable" -> {
                return password(1);
            }
            case "end" -> mode = Mode.EXEC;
            case "exit" -> {
                if (mode == Mode.EXEC || mode == Mode.USER) {
                    return Reply.close();
                }
                mode = mode == Mode.CONFIG_IF ? Mode.CONFIG : Mode.EXEC;
            }
            default -> throw new IllegalStateException("no action for IOS command " + pattern);
        }
        return Reply.lines();
    }

    private Reply save() {
        device.saveAll();
        return Reply.lines("Building configuration...", "[OK]");
    }

    /** The {@code attempt}th password prompt of {@code enable}. */
    private Reply password(int attempt) {
        return Reply.askSecret(PASSWORD, answer -> {
            if (answer.equals(enableSecret)) {
                mode = Mode.EXEC;
                return Reply.lines();
            }
            return attempt < PASSWORD_TRIES ? password(attempt + 1) : Reply.lines("% Bad secrets");
        });
    }

    /** The plug of a full or short interface name, any case, or null. */
    private String plug(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String plug : device.plugs()) {
            String number = plug.substring(DeviceKind.IOS_INTERFACE.length());
            if (lower.equals(plug.toLowerCase(Locale.ROOT))
                    || lower.equals((SHORT_INTERFACE + number).toLowerCase(Locale.ROOT))) {
                return plug;
            }
        }
        return null;
    }

    private String status(String plug) {
        String name = device.name(plug);
        boolean enabled = device.port(plug).power() == PowerState.ON;
        boolean connected = enabled && device.linkUp(plug) && device.statusWord(plug) == null;
        String word = !enabled ? "disabled" : device.statusWord(plug) != null ? device.statusWord(plug)
                : connected ? "connected" : "notconnect";
        return row(SHORT_INTERFACE + plug.substring(DeviceKind.IOS_INTERFACE.length()),
                name.length() > 18 ? name.substring(0, 18) : name, word, "10",
                connected ? "a-full" : "auto", connected ? "a-1000" : "auto", "10/100/1000BaseTX");
    }

    private static String row(String port, String name, String status, String vlan, String duplex, String speed,
            String type) {
        return String.format(Locale.ROOT, "%-13s%-19s%-13s%-11s%6s %6s %s", port, name, status, vlan, duplex, speed,
                type);
    }
}
