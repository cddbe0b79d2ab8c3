package dev.remedy.cli;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.spi.config.Durations;
import dev.remedy.spi.config.ParameterType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code remedy fence TYPE ACTION -p key=value …}: one action of one agent. */
@Command(name = "fence", mixinStandardHelpOptions = true, description = "Run one action of one agent and print the outcome.",
        footer = {"", "Exit codes: 0 ok (STATUS: on), 1 failed, 2 STATUS off, 3 bad input, 4 timed out,",
                "5 unsupported, 6 refused."})
final class FenceCommand implements Callable<Integer> {

    /** The longest --timeout: an hour, as the longest wait of any agent parameter. */
    static final Duration MAX_TIMEOUT = ParameterType.MAX_DURATION;

    @ParentCommand
    private RemedyCli cli;

    @Parameters(index = "0", paramLabel = "TYPE", description = "agent type, as listed by 'remedy agents'")
    private String type;

    @Parameters(index = "1", paramLabel = "ACTION", description = "on, off, reboot, status, list or monitor")
    private String action;

    @Option(names = {"-p", "--param"}, paramLabel = "KEY=VALUE",
            description = "an agent parameter (remedy or fence-agents name); not for secrets")
    private List<String> parameters = new ArrayList<>();

    @Option(names = "--secret-env", paramLabel = "KEY=VARIABLE",
            description = "a secret parameter read from an environment variable")
    private List<String> secretVariables = new ArrayList<>();

    @Option(names = "--secret-file", paramLabel = "KEY=PATH",
            description = "a secret parameter read from a file (trailing newline removed)")
    private List<String> secretFiles = new ArrayList<>();

    @Option(names = {"-t", "--timeout"}, paramLabel = "DURATION", defaultValue = "60s",
            description = "deadline of the whole action, e.g. 30s, 2m or PT90S, at most 1h (default: ${DEFAULT-VALUE})")
    private String timeout;

    @Option(names = "--verbose", description = "log remedy's debug lines (the agent's steps, each HTTP request) and print"
            + " stack traces of errors")
    private boolean verbose;

    @Override
    public Integer call() throws InterruptedException {
        CliEnvironment env = cli.environment();
        FenceAction wanted = FenceAction.fromCode(action).orElseThrow(() -> new UserError("unknown action '"
                + action + "'; use one of " + Arrays.stream(FenceAction.values()).map(FenceAction::code)
                .collect(Collectors.joining(", "))));
        Duration budget = budget();
        FenceAgentRegistry only = env.registry(type);
        // an unknown type is refused by the whole registry, whose message lists the known types
        FenceAgentProvider provider = (only.types().contains(type) ? only : env.registry()).provider(type)
                .specialise(plainValues(parameters));
        AgentConfig.Builder builder = provider.configure();
        SecretSources sources = new SecretSources(builder, env, type, provider.parameters());
        parameters.forEach(sources::parameter);
        secretVariables.forEach(sources::fromEnvironment);
        secretFiles.forEach(f -> sources.fromFile(f, env.err()));
        try {
            return new ActionRunner(env).run(builder.build(), wanted, budget);
        } finally {
            only.closeProviders();
        }
    }

    /**
     * The {@code KEY=VALUE} values, for the provider to describe the configuration they make (the fence-agents agent's
     * parameters are those of the ClusterLabs agent {@code agent} names). A malformed one is left to
     * {@link SecretSources#parameter}, which refuses it.
     */
    private static Map<String, String> plainValues(List<String> assignments) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String assignment : assignments) {
            int eq = assignment.indexOf('=');
            if (eq > 0) {
                values.put(assignment.substring(0, eq).trim(), assignment.substring(eq + 1));
            }
        }
        return values;
    }

    /**
     * The deadline of the action: refused rather than capped when it is over {@link #MAX_TIMEOUT}, so that the
     * deadline the agent works to is the one asked for.
     */
    private Duration budget() {
        try {
            Duration budget = Durations.parse(timeout, MAX_TIMEOUT);
            if (budget.isZero()) {
                throw new IllegalArgumentException("'" + timeout + "' is zero");
            }
            return budget;
        } catch (IllegalArgumentException e) {
            throw new UserError("--timeout: " + e.getMessage() + "; give a positive duration of at most "
                    + Durations.format(MAX_TIMEOUT) + " (an action that has not ended in an hour will not), such as "
                    + "30s, 500ms, 2m or PT90S");
        }
    }
}
