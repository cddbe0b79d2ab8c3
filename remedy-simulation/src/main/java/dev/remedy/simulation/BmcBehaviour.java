package dev.remedy.simulation;

import java.util.Locale;

/** How the BMC of a simulated node behaves towards the fence agent. */
public enum BmcBehaviour {
    /** Answers and does what it is told. */
    OK,
    /** Answers but refuses the login: every operation fails at once. */
    FAILS,
    /** Never answers: every operation stays without result until the engine counts it as lost. */
    HANGS,
    /** Executes commands, but STATUS reads ON forever: OFF can never be confirmed. */
    LIES;

    /** The name used in scenario files: {@code ok}, {@code fails}, {@code hangs}, {@code lies}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
