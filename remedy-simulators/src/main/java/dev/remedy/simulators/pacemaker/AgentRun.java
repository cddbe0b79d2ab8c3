package dev.remedy.simulators.pacemaker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a fence agent by the fencer, as its log records it: which device's agent ran for which node and how it
 * ended. The history names no device; this is how a test sees which level fenced.
 *
 * @param action the action the agent ran ({@code off}, {@code on}, {@code reboot})
 * @param pid the agent's process id
 * @param target the node
 * @param device the device's id
 * @param exitCode the agent's exit code, or {@link #NOT_COMPLETED} when the fencer stopped it or could not run it
 * @param failure why it did not complete (for example {@code Timed Out (Fence agent did not complete within
 *     4s)}); empty when it exited
 */
public record AgentRun(String action, long pid, String target, String device, int exitCode, String failure) {

    /** The exit code of a run the fencer stopped at its timeout or could not start. */
    public static final int NOT_COMPLETED = -1;

    private static final Pattern LINE = Pattern.compile("Operation '([a-z]+)' \\[(\\d+)] targeting (\\S+) using (\\S+) "
            + "(?:returned (-?\\d+)|could not be executed: (.*?)) \\| call");

    /** Checks that nothing is null. */
    public AgentRun {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(failure, "failure");
    }

    /** Whether the agent exited with 0. */
    public boolean succeeded() {
        return exitCode == 0;
    }

    /** Every agent run in the fencer's log text, oldest first. */
    static List<AgentRun> parse(String log) {
        List<AgentRun> runs = new ArrayList<>();
        Matcher matcher = LINE.matcher(log);
        while (matcher.find()) {
            boolean exited = matcher.group(5) != null;
            runs.add(new AgentRun(matcher.group(1), Long.parseLong(matcher.group(2)), matcher.group(3),
                    matcher.group(4), exited ? Integer.parseInt(matcher.group(5)) : NOT_COMPLETED,
                    exited ? "" : matcher.group(6)));
        }
        return List.copyOf(runs);
    }
}
