package dev.remedy.cli;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.config.AgentConfig;
import java.time.Duration;
import java.util.Locale;

/** Runs one action of one configured agent, printing progress lines to stderr and the outcome to stdout. */
final class ActionRunner {

    private final CliEnvironment env;

    ActionRunner(CliEnvironment env) {
        this.env = env;
    }

    /** Runs {@code action} and returns the exit code. */
    int run(AgentConfig config, FenceAction action, Duration budget) throws InterruptedException {
        String label = config.agentType() + " " + action.code();
        FenceAgent agent = env.registry(config.agentType()).create(config);
        long start = env.time().nanoTime();
        FenceContext context = FenceContext.start(env.time(), budget, message -> env.err().printf(Locale.ROOT,
                "remedy: %s [%5.1fs] %s%n", label, seconds(env.time().nanoTime() - start), message));
        FenceOutcome outcome;
        try (agent) {
            outcome = agent.execute(new FenceRequest(action, "cli"), context);
        }
        print(action, outcome);
        return ExitCodes.of(action, outcome);
    }

    private void print(FenceAction action, FenceOutcome outcome) {
        if (action == FenceAction.STATUS && outcome.isSuccess()) {
            env.out().println("Status: " + outcome.power());
        }
        outcome.plugs().forEach(p -> env.out().println(csv(p.id()) + "," + csv(p.alias()) + "," + p.power()));
        String verb = action.code().toUpperCase(Locale.ROOT) + " " + outcome.status().name().toLowerCase(Locale.ROOT)
                .replace('_', ' ');
        env.out().printf(Locale.ROOT, "%s: power %s, %d attempt%s, %.2f s: %s%n", verb, outcome.power(),
                outcome.attempts(), outcome.attempts() == 1 ? "" : "s", seconds(outcome.elapsed().toNanos()),
                outcome.detail());
        if (outcome.status() != FenceStatus.SUCCEEDED) {
            outcome.cause().ifPresent(c -> env.out().println("  cause: " + c));
        }
        env.out().flush();
    }

    /**
     * A field of a {@code list} line as CSV writes it: quoted, its quotes doubled, if it holds a comma, a quote or a
     * line break (devices name plugs freely); as it is otherwise.
     */
    static String csv(String field) {
        if (field.chars().noneMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
