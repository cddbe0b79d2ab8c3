package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.discovery.SecretScrubber;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One configured ClusterLabs agent: each action runs the agent process once or more through {@link AgentRunner},
 * with the ClusterLabs exit codes (0 success; for {@code status} 0 on, 2 off, anything else a failure). OFF and ON
 * succeed only once a {@code status} run of remedy's own reads the new state, whatever the agent said: some agents
 * report success before the machine is off ({@code fence_ipmilan} warns of it, {@code method=cycle} never looks).
 * REBOOT is OFF confirmed, then ON confirmed. The agent's standard error becomes progress lines, its secrets masked.
 */
public final class ClusterLabsAgent implements FenceAgent {

    /** The wait between two status reads while the agent's change does not show yet. */
    static final Duration CONFIRM_INTERVAL = Duration.ofSeconds(1);

    private static final int DETAIL_LINES = 2;
    private static final int DETAIL_LINE_CAP = 300;

    private final String type;
    private final AgentDescription description;
    private final AgentConfig config;
    private final AgentRunner runner;
    private final SecretScrubber scrubber;

    /** An agent of type {@code type} running {@code description}'s agent with {@code config}'s values. */
    public ClusterLabsAgent(String type, AgentDescription description, AgentConfig config, AgentRunner runner) {
        this.type = type;
        this.description = description;
        this.config = config;
        this.runner = runner;
        this.scrubber = SecretScrubber.of(config);
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        FenceAction action = request.action();
        if (!description.actions().contains(action)) {
            return FenceOutcome.of(FenceStatus.UNSUPPORTED, PowerState.UNKNOWN, "agent '" + type + "' with "
                    + description.agent() + " does not support action '" + action.code() + "'");
        }
        Call call = new Call(context);
        FenceOutcome outcome;
        try {
            outcome = switch (action) {
                case STATUS -> status(call);
                case MONITOR -> monitor(call);
                case LIST -> list(call);
                case OFF -> change(PowerState.OFF, call);
                case ON -> change(PowerState.ON, call);
                case REBOOT -> reboot(call);
            };
        } catch (IOException e) {
            outcome = FenceOutcome.failed(PowerState.UNKNOWN, "cannot run " + description.executable() + ": "
                    + scrubber.scrub(e.getMessage()));
        }
        return outcome.withAttempts(call.runs).withElapsed(context.elapsed());
    }

    private FenceOutcome status(Call call) throws IOException, InterruptedException {
        AgentRunner.Result result = run("status", call);
        if (result.timedOut()) {
            return timedOut("status", call);
        }
        return switch (result.exitCode()) {
            case 0 -> FenceOutcome.succeeded(PowerState.ON, description.agent() + " status: ON");
            case 2 -> FenceOutcome.succeeded(PowerState.OFF, description.agent() + " status: OFF");
            default -> FenceOutcome.failed(PowerState.UNKNOWN, failure("status", result));
        };
    }

    private FenceOutcome monitor(Call call) throws IOException, InterruptedException {
        AgentRunner.Result result = run("monitor", call);
        if (result.timedOut()) {
            return timedOut("monitor", call);
        }
        return result.exitCode() == 0
                ? FenceOutcome.succeeded(PowerState.UNKNOWN, description.agent() + " monitor: the device answers")
                : FenceOutcome.failed(PowerState.UNKNOWN, failure("monitor", result));
    }

    private FenceOutcome list(Call call) throws IOException, InterruptedException {
        String action = description.listStatus() ? "list-status" : "list";
        AgentRunner.Result result = run(action, call);
        if (result.timedOut()) {
            return timedOut(action, call);
        }
        if (result.exitCode() != 0) {
            return FenceOutcome.failed(PowerState.UNKNOWN, failure(action, result));
        }
        List<Plug> plugs = PlugList.parse(result.stdoutText(), description.listStatus(), scrubber::scrub);
        String more = result.truncated() ? " (its output passed " + AgentRunner.OUTPUT_CAP / 1024
                + " KiB: plugs after that are missing)" : "";
        return FenceOutcome.succeeded(PowerState.UNKNOWN, description.agent() + " lists " + plugs.size() + " plug"
                + (plugs.size() == 1 ? "" : "s") + more).withPlugs(plugs);
    }

    private FenceOutcome change(PowerState target, Call call) throws IOException, InterruptedException {
        String verb = target.name().toLowerCase(Locale.ROOT);
        AgentRunner.Result result = run(verb, call);
        if (result.timedOut()) {
            return timedOut(verb, call);
        }
        if (result.exitCode() != 0) {
            return FenceOutcome.failed(PowerState.UNKNOWN, failure(verb, result));
        }
        PowerState last = PowerState.UNKNOWN;
        while (true) {
            FenceOutcome read = status(call);
            if (!read.isSuccess()) {
                if (read.status() == FenceStatus.TIMED_OUT && last != PowerState.UNKNOWN) {
                    return notConfirmed(verb, last, call);
                }
                return FenceOutcome.of(read.status(), PowerState.UNKNOWN, description.agent() + " reported " + verb
                        + " done, but the status read that confirms it did not succeed: " + read.detail());
            }
            if (read.power() == target) {
                return FenceOutcome.succeeded(target, description.agent() + " " + verb + ", confirmed: status reads "
                        + target);
            }
            last = read.power();
            call.context.progress(description.agent() + " reported " + verb + " done but status reads " + last
                    + "; reading it again");
            call.context.sleep(CONFIRM_INTERVAL);
            if (call.context.expired()) {
                return notConfirmed(verb, last, call);
            }
        }
    }

    private FenceOutcome notConfirmed(String verb, PowerState last, Call call) {
        return FenceOutcome.of(FenceStatus.TIMED_OUT, last, description.agent() + " reported " + verb + " done but "
                + "status still read " + last + " at the deadline (" + call.context.budget().toMillis() + " ms)");
    }

    private FenceOutcome reboot(Call call) throws IOException, InterruptedException {
        FenceOutcome off = change(PowerState.OFF, call);
        if (!off.isSuccess()) {
            return FenceOutcome.of(off.status(), off.power(), "reboot: " + off.detail());
        }
        FenceOutcome on = change(PowerState.ON, call);
        if (!on.isSuccess()) {
            return FenceOutcome.of(on.status(), on.power(), "reboot: off confirmed, then on did not succeed: " + on.detail());
        }
        return FenceOutcome.succeeded(PowerState.ON, description.agent() + " reboot: off confirmed, then on "
                + "confirmed");
    }

    private AgentRunner.Result run(String action, Call call) throws IOException, InterruptedException {
        call.context.progress("running " + description.agent() + " action=" + action);
        call.runs++;
        return runner.run(description.executable(), AgentInput.of(action, description, config), call.context,
                AgentRunner.OUTPUT_CAP, line -> call.context.progress(description.agent() + ": "
                        + scrubber.scrub(line)));
    }

    private FenceOutcome timedOut(String action, Call call) {
        return FenceOutcome.timedOut(description.agent() + " action=" + action + " did not finish by the deadline ("
                + call.context.budget().toMillis() + " ms): remedy killed its process group; the power state is "
                + "unknown");
    }

    /** The agent's exit code and its last error lines (or output lines, if it wrote no error), secrets masked. */
    private String failure(String action, AgentRunner.Result result) {
        List<String> lines = last(result.stderr().stream().filter(l -> l.contains("ERROR") || l.contains("Failed"))
                .toList());
        if (lines.isEmpty()) {
            lines = last(result.stderr());
        }
        if (lines.isEmpty()) {
            lines = last(result.stdoutText().lines().toList());
        }
        String said = lines.isEmpty() ? "it printed nothing" : String.join(" / ", lines);
        return description.agent() + " action=" + action + " failed with exit code " + result.exitCode() + ": "
                + scrubber.scrub(said);
    }

    private static List<String> last(List<String> lines) {
        List<String> kept = new ArrayList<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                kept.add(line.strip().length() > DETAIL_LINE_CAP ? line.strip().substring(0, DETAIL_LINE_CAP) + "..."
                        : line.strip());
            }
        }
        return kept.subList(Math.max(0, kept.size() - DETAIL_LINES), kept.size());
    }

    /** One {@link #execute} call: its context and how many agent processes it ran. */
    private static final class Call {
        private final FenceContext context;
        private int runs;

        private Call(FenceContext context) {
            this.context = context;
        }
    }
}
