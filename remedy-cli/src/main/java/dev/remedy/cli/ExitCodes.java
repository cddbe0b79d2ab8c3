package dev.remedy.cli;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;

/**
 * The exit codes of {@code remedy}. 0, 1 and 2 mean what they mean for the ClusterLabs fence agents (so Pacemaker
 * and scripts read them unchanged); the others tell apart what the fence agents lump into 1.
 */
public final class ExitCodes {

    /** The action succeeded (STATUS: the target is on). */
    public static final int OK = 0;
    /** The action failed: the device answered with an error or refused the credentials. */
    public static final int FAILED = 1;
    /** STATUS succeeded and the target is off. */
    public static final int STATUS_OFF = 2;
    /** Bad input: unknown agent or action, invalid or missing parameter, unreadable secret. Nothing was sent. */
    public static final int BAD_INPUT = 3;
    /** The deadline passed before the action was confirmed. */
    public static final int TIMED_OUT = 4;
    /** The agent does not support the action. */
    public static final int UNSUPPORTED = 5;
    /** The agent refused to act (an unknown host key, an ambiguous target). */
    public static final int REFUSED = 6;

    private ExitCodes() {
    }

    /** The exit code for {@code outcome} of {@code action}. */
    public static int of(FenceAction action, FenceOutcome outcome) {
        return switch (outcome.status()) {
            case SUCCEEDED -> action == FenceAction.STATUS && outcome.power() == PowerState.OFF ? STATUS_OFF : OK;
            case FAILED -> FAILED;
            case TIMED_OUT -> TIMED_OUT;
            case UNSUPPORTED -> UNSUPPORTED;
            case REFUSED -> REFUSED;
        };
    }
}
