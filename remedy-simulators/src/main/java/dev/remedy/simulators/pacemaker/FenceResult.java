package dev.remedy.simulators.pacemaker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one {@code stonith_admin --fence} ended, as the client saw it.
 *
 * @param exitCode stonith_admin's exit code: 0 when fenced, {@value #TIMED_OUT} when the operation timed out,
 *     another code when it failed, {@code -1} when stonith_admin itself had to be killed
 * @param output what stonith_admin printed (it names the error on failure)
 * @param elapsed how long the call took, process start included
 * @param commandLines the command lines ({@code /proc/<pid>/cmdline}, as {@code ps} shows them) of the processes the
 *     fencer ran meanwhile, its agents and their children, distinct and in the order first seen; sampled every
 *     5 ms, so a process that lived less can be missing
 */
public record FenceResult(int exitCode, String output, Duration elapsed, List<String> commandLines) {

    /** Pacemaker's exit code for a timeout ({@code CRM_EX_TIMEOUT}). */
    public static final int TIMED_OUT = 124;

    /** Checks that nothing is null and copies the list. */
    public FenceResult {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(elapsed, "elapsed");
        commandLines = List.copyOf(commandLines);
    }

    /** Whether the fencer reported the node fenced. */
    public boolean succeeded() {
        return exitCode == 0;
    }
}
