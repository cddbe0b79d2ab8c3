package dev.remedy.simulators.redfish;

import dev.remedy.spi.PowerState;
import java.util.List;

/** What each Redfish {@code ResetType} (and outlet {@code PowerState} command) does to a machine's power. */
final class ResetSemantics {

    /** Every ResetType value the DMTF {@code Resource.ResetType} enumeration defines. */
    static final List<String> KNOWN_RESET_TYPES = List.of("On", "ForceOff", "GracefulShutdown", "GracefulRestart",
            "ForceRestart", "Nmi", "ForceOn", "PushPowerButton", "PowerCycle", "Suspend", "Pause", "Resume",
            "FullPowerCycle");

    private ResetSemantics() {
    }

    /**
     * The states a system enters for {@code resetType} when its power is {@code now}: On/ForceOn enter ON;
     * ForceOff/GracefulShutdown enter OFF; PushPowerButton toggles; ForceRestart, GracefulRestart, PowerCycle and
     * FullPowerCycle enter OFF then ON at one instant (just ON from off); a machine that never reaches off drops
     * every OFF; ignored graceful requests (no OS to honour them) change nothing; Nmi, Suspend, Pause and
     * Resume change nothing.
     */
    static List<PowerState> system(String resetType, PowerState now, boolean neverOff, boolean gracefulWorks) {
        boolean graceful = resetType.startsWith("Graceful");
        if (graceful && !gracefulWorks) {
            return List.of();
        }
        List<PowerState> states = switch (resetType) {
            case "On", "ForceOn" -> List.of(PowerState.ON);
            case "ForceOff", "GracefulShutdown" -> List.of(PowerState.OFF);
            case "PushPowerButton" -> List.of(now == PowerState.ON ? PowerState.OFF : PowerState.ON);
            case "ForceRestart", "GracefulRestart", "PowerCycle", "FullPowerCycle" -> cycle(now);
            default -> List.of();
        };
        return neverOff ? states.stream().filter(s -> s != PowerState.OFF).toList() : states;
    }

    /** The states an outlet enters for a PowerControl {@code PowerState} of On, Off or PowerCycle. */
    static List<PowerState> outlet(String command, PowerState now) {
        return switch (command) {
            case "On" -> List.of(PowerState.ON);
            case "Off" -> List.of(PowerState.OFF);
            case "PowerCycle" -> cycle(now);
            default -> throw new IllegalArgumentException("outlet PowerState '" + command + "' is not On, Off or "
                    + "PowerCycle");
        };
    }

    private static List<PowerState> cycle(PowerState now) {
        return now == PowerState.ON ? List.of(PowerState.OFF, PowerState.ON) : List.of(PowerState.ON);
    }
}
