package dev.remedy.simulators.ssh;

import dev.remedy.spi.PowerState;
import java.util.List;
import java.util.Locale;

/**
 * The Brocade FOS CLI of a fibre channel switch: {@code portshow N}, {@code portdisable N},
 * {@code portenable N}, {@code portcfgpersistentdisable N}, {@code portcfgpersistentenable N}, {@code exit}. As on
 * FOS, {@code portdisable} lasts until the switch reloads ({@link SimulatedDevice#reload()}); the persistent
 * commands survive it. Commands are case-insensitive; the port is the rest of the line.
 */
final class BrocadeCli implements DeviceCli {

    static final String HOST = "remedy-fc1";
    static final String PROMPT = HOST + ":admin> ";

    private static final String PERSISTENT_DISABLE = "portcfgpersistentdisable";
    private static final String PERSISTENT_ENABLE = "portcfgpersistentenable";

    private final SimulatedDevice device;
    private final String prompt;

    BrocadeCli(SimulatedDevice device, String prompt) {
        this.device = device;
        this.prompt = prompt;
    }

    @Override
    public String greeting() {
        return "";
    }

    @Override
    public String prompt() {
        return prompt;
    }

    @Override
    public Reply execute(String command) {
        String[] parts = command.split("\\s+", 2);
        String port = parts.length == 2 ? parts[1] : "";
        String name = parts[0].toLowerCase(Locale.ROOT);
        if (name.equals("exit")) {
            return Reply.close();
        }
        if (!List.of("portshow", "portdisable", "portenable", PERSISTENT_DISABLE, PERSISTENT_ENABLE).contains(name)) {
            return Reply.lines("rbash: " + parts[0] + ": command not found");
        }
        if (!device.plugs().contains(port)) {
            return Reply.lines("Invalid port number: " + port);
        }
        return switch (name) {
            case "portshow" -> show(port);
            case "portdisable" -> change(port, PowerState.OFF);
            case PERSISTENT_DISABLE -> persist(port, PowerState.OFF);
            case PERSISTENT_ENABLE -> persist(port, PowerState.ON);
            default -> change(port, PowerState.ON);
        };
    }

    private Reply persist(String port, PowerState state) {
        device.save(port, state);
        return change(port, state);
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
