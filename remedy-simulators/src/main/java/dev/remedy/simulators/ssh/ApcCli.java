package dev.remedy.simulators.ssh;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The AOS CLI of an APC rack PDU (firmware 5+): {@code olStatus}, {@code olOn}, {@code olOff}, {@code olReboot},
 * {@code exit}/{@code quit}. Commands and {@code all} are case-insensitive, as on the real CLI.
 */
final class ApcCli implements DeviceCli {

    static final String PROMPT = "\r\napc>";
    static final String MORE = "--More-- (press <SPACE> to continue, q to quit)";
    static final String CONFIRM = "Enter 'YES' to continue or <ENTER> to cancel : ";
    private static final String BANNER = banner();

    private final SimulatedDevice device;
    private final boolean confirmations;
    private final int pageLength;

    ApcCli(SimulatedDevice device, boolean confirmations, int pageLength) {
        this.device = device;
        this.confirmations = confirmations;
        this.pageLength = pageLength;
    }

    /**
     * The banner of the contract without its last, empty line: the prompt's leading CR LF prints that one.
     */
    private static String banner() {
        try (InputStream in = Objects.requireNonNull(ApcCli.class.getResourceAsStream("apc-banner.txt"),
                "apc-banner.txt")) {
            return String.join("\r\n", new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the APC banner", e);
        }
    }

    @Override
    public String greeting() {
        return BANNER;
    }

    @Override
    public String prompt() {
        return PROMPT;
    }

    @Override
    public Reply execute(String command) {
        String[] words = command.split("\\s+");
        String argument = words.length == 2 ? words[1] : null;
        return switch (words[0].toLowerCase(Locale.ROOT)) {
            case "olstatus" -> "all".equalsIgnoreCase(argument) ? statusAll() : status(argument);
            case "olon" -> control(argument, PowerState.ON);
            case "oloff" -> control(argument, PowerState.OFF);
            case "olreboot" -> control(argument, null);
            case "exit", "quit" -> Reply.close("Bye.");
            default -> Reply.lines("E101: Command Not Found");
        };
    }

    private Reply statusAll() {
        List<String> lines = new ArrayList<>();
        lines.add("E000: Success");
        device.plugs().forEach(plug -> lines.add(outlet(plug)));
        return Reply.paged(lines, pageLength, MORE);
    }

    private Reply status(String argument) {
        String plug = plug(argument);
        return plug == null ? parameterError() : Reply.lines("E000: Success", outlet(plug));
    }

    /** olOn, olOff, or olReboot ({@code wanted} null): off, then on after the reboot time. */
    private Reply control(String argument, PowerState wanted) {
        String plug = plug(argument);
        if (plug == null) {
            return parameterError();
        }
        if (!confirmations) {
            return switchOutlet(plug, wanted);
        }
        return Reply.ask(CONFIRM, answer -> answer.strip().equals("YES") ? switchOutlet(plug, wanted)
                : Reply.lines("Command cancelled."));
    }

    private Reply switchOutlet(String plug, PowerState wanted) {
        ScheduledPowerTarget outlet = device.port(plug);
        if (wanted != null) {
            device.commanded(plug, wanted);
            outlet.commandSteps(wanted);
        } else {
            outlet.commandSteps(PowerState.OFF);
            outlet.command(outlet.now() + device.rebootTime().toNanos(), List.of(PowerState.ON));
        }
        return Reply.lines("E000: Success");
    }

    private String outlet(String plug) {
        return " " + plug + ": " + device.name(plug) + ": " + (device.port(plug).power() == PowerState.ON ? "On"
                : "Off");
    }

    /** The outlet an argument names, or null if it names none. */
    private String plug(String argument) {
        return argument != null && device.plugs().contains(argument) ? argument : null;
    }

    private static Reply parameterError() {
        return Reply.lines("E102: Parameter Error");
    }
}
