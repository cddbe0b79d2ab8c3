package dev.remedy.simulators.ssh;

import dev.remedy.spi.PowerState;
import java.util.Locale;

/**
 * The Brocade FOS CLI of a fibre channel switch: {@code portshow N}, {@code portdisable N},
 * {@code portenable N}, {@code exit}. Commands are case-insensitive; the port is the rest of the line.
 */
final class BrocadeCli implements DeviceCli {

    static final String PROMPT = "remedy-fc1:admin> ";

    private final SimulatedDevice device;

    BrocadeCli(SimulatedDevice device) {
        this.device = device;
    }

    @Override
    public String greeting() {
        return "";
    }

    @Override
    public String prompt() {
        return PROMPT;
    }

    @Override
    public Reply execute(String command) {
        String[] parts = command.split("\\s+", 2);
        String port = parts.length == 2 ? parts[1] : "";
        String name = parts[0].toLowerCase(Locale.ROOT);
        if (name.equals("exit")) {
            return Reply.close();
        }
        if (!name.equals("portshow") && !name.equals("portdisable") && !name.equals("portenable")) {
            return Reply.lines("rbash: " + parts[0] + ": command not found");
        }
        if (!device.plugs().contains(port)) {
            return Reply.lines("Invalid port number: " + port);
        }
        return switch (name) {
            case "portshow" -> show(port);
            case "portdisable" -> change(port, PowerState.OFF);
            default -> change(port, PowerState.ON);
        };
    }

    private Reply change(String port, PowerState state) {
        device.port(port).commandSteps(state);
        return Reply.lines();
    }

    private Reply show(String port) {
        boolean online = device.port(port).power() == PowerState.ON;
        return Reply.lines(
                "portIndex:   " + port,
                "portName: " + device.name(port),
                "portHealth: HEALTHY",
                "",
                "Authentication: None",
                "portDisableReason: " + (online ? "None" : "User Disabled"),
                "portCFlags: 0x1",
                online ? "portFlags: 0x24b03       PRESENT ACTIVE F_PORT G_PORT U_PORT LOGICAL_ONLINE LOGIN NOELP LED "
                        + "ACCEPT FLOGI" : "portFlags: 0x4001       PRESENT U_PORT DISABLED LED",
                online ? "portState: 1    Online" : "portState: 2    Offline");
    }
}
