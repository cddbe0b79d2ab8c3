package dev.remedy.cli.fenceagents;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Durations;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One call of a {@code fence_remedy_<type>} launcher, speaking the protocol of the ClusterLabs fence agents
 * ({@code fencing.py}): options from the command line when it has any, otherwise {@code key=value} lines on stdin
 * (where Pacemaker's fencer writes them); names as remedy or fence-agents spell them, with {@code -} or {@code _},
 * and the old names ({@code option} for {@code action}, {@code port} for {@code plug}, {@code ipaddr}, {@code login},
 * {@code passwd}); {@code nodename} and {@code nodeid}, which Pacemaker sends to every agent, are ignored (the target
 * is the {@code port} or {@code plug} it also sends, for agents with plugs); other unknown options are ignored with
 * a warning that names them without their value. Exit codes are the agents': 0 success, 1 failure (a timeout
 * included), 2 for {@code status} of a target that is off.
 *
 * <p>Output as {@code fencing.py} prints it: {@code Status: ON} / {@code Status: OFF}, {@code Success: Powered OFF},
 * {@code Success: Rebooted}, {@code plug,alias} lines for {@code list}; failures and warnings on stderr, where no
 * secret is ever printed.
 */
public final class FenceAgentProtocol {

    /** The hidden command of {@code remedy} that launchers run: {@code remedy fence-agent-protocol --type T -- …}. */
    public static final String COMMAND = "fence-agent-protocol";
    /** The option that bounds the whole action. */
    static final String ACTION_TIMEOUT = "action_timeout";
    /** Its default: below Pacemaker's default {@code stonith-timeout} of 60 s, so that remedy reports first. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(50);
    /**
     * fence_ipmilan's option that makes the plug Pacemaker sends the device's address: one device for every node,
     * with {@code pcmk_host_map=node1:10.0.0.1;node2:10.0.0.2}. For agents with an {@code ip} and no plug.
     */
    static final String PORT_AS_IP = "port_as_ip";

    static final int OK = 0;
    static final int FAILED = 1;
    static final int STATUS_OFF = 2;

    /** The old names of options that fence-agents still accept, by their current name. */
    private static final Map<String, String> OLD_NAMES = Map.of("option", "action", "port", "plug", "ipaddr", "ip",
            "login", "username", "passwd", "password", "debug", "debug_file");
    /** Options that take no value on the command line, whatever the agent: fence-agents' flags. */
    private static final Set<String> FLAGS = Set.of("verbose", "quiet", "help", "version", "ssl", "lanplus",
            PORT_AS_IP);

    private final FenceAgentRegistry registry;
    private final TimeSource time;
    private final PrintWriter out;
    private final PrintWriter err;

    /** A protocol that finds agents in {@code registry} and prints to {@code out} and {@code err}. */
    public FenceAgentProtocol(FenceAgentRegistry registry, TimeSource time, PrintWriter out, PrintWriter err) {
        this.registry = registry;
        this.time = time;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs {@code remedy fence-agent-protocol --type TYPE [--] AGENT-ARGS…}, the command line of a launcher, and
     * returns the exit code.
     */
    public int main(List<String> args, Reader stdin) throws InterruptedException {
        if (args.size() < 2 || !args.get(0).equals("--type")) {
            err.println("remedy " + COMMAND + ": expected --type TYPE, then the fence agent's arguments; this command"
                    + " is run by the fence_remedy_* launchers that 'remedy fence-agents install' writes");
            err.flush();
            return FAILED;
        }
        List<String> agentArgs = args.subList(2, args.size());
        if (!agentArgs.isEmpty() && agentArgs.get(0).equals("--")) {
            agentArgs = agentArgs.subList(1, agentArgs.size());
        }
        try {
            return run(args.get(1), agentArgs, stdin);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Runs one call of the launcher of agent {@code type} with its arguments and stdin; returns the exit code. */
    int run(String type, List<String> args, Reader stdin) throws InterruptedException {
        String name = Launchers.name(type);
        FenceAgentProvider provider;
        ProtocolInput.Parsed input;
        try {
            provider = registry.provider(type);
            input = args.isEmpty() ? ProtocolInput.stdin(stdin)
                    : ProtocolInput.commandLine(args, option -> isFlag(provider, option));
        } catch (RemedyException | IllegalArgumentException | IOException e) {
            return fail(name, e.getMessage());
        }
        Call call = Call.of(provider, input.options(), name);
        String action = call.action.toLowerCase(Locale.ROOT);
        if (call.help || call.version || action.equals(ProtocolActions.METADATA) || action.equals("meta-data")) {
            warn(name, input, call);
            if (call.help) {
                out.print(Usage.of(name, provider));
            } else if (call.version) {
                out.println("remedy 0.1.0 (" + name + ")");
            } else {
                out.print(AgentMetadata.of(provider));
            }
            return OK;
        }
        Duration budget;
        FenceAgentProvider described;
        AgentConfig config;
        try {
            call.applyPortAsIp();
            described = provider.specialise(call.plainValues());
            if (described != provider) {
                call = Call.of(described, input.options(), name);
                call.applyPortAsIp();
            }
            warn(name, input, call);
            if (!ProtocolActions.of(described).contains(action)) {
                return fail(name, "Unrecognised action '" + call.action + "'; " + name + " answers "
                        + String.join(", ", ProtocolActions.of(described)));
            }
            budget = call.budget();
            config = call.config(described);
        } catch (RemedyException | IllegalArgumentException e) {
            return fail(name, e.getMessage());
        }
        List<ConfigProblem> problems = described.validate(config);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println(name + ": Failed: " + p));
            return fail(name, action.equals(ProtocolActions.VALIDATE_ALL) ? "validate-all failed"
                    : "the configuration is invalid; nothing was sent to the device");
        }
        if (action.equals(ProtocolActions.VALIDATE_ALL)) {
            return OK;
        }
        try {
            return new Run(name, described, config, budget, call.verbose && !call.quiet).act(action,
                    call.separator);
        } catch (RemedyException e) {
            return fail(name, e.getMessage());
        }
    }

    private void warn(String name, ProtocolInput.Parsed input, Call call) {
        if (!call.quiet) {
            input.warnings().forEach(w -> err.println(name + ": warning: " + w));
            call.warnings.forEach(w -> err.println(name + ": warning: " + w));
        }
    }

    /** Whether {@link #PORT_AS_IP} applies to the agent: it has an {@code ip} and no plug of its own. */
    static boolean hasPortAsIp(FenceAgentProvider provider) {
        return provider.parameters().stream().anyMatch(p -> p.answersTo("ip"))
                && provider.parameters().stream().noneMatch(p -> p.answersTo("plug"));
    }

    private static boolean isFlag(FenceAgentProvider provider, String option) {
        String name = OLD_NAMES.getOrDefault(option, option);
        return FLAGS.contains(name) || provider.parameters().stream()
                .anyMatch(p -> p.answersTo(name) && p.type() == ParameterType.BOOLEAN);
    }

    private int fail(String name, String message) {
        err.println(name + ": Failed: " + message);
        return FAILED;
    }

    /** What the options of one call say. */
    private static final class Call {
        private final FenceAgentProvider provider;
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, String> secrets = new LinkedHashMap<>();
        private final List<String> warnings = new ArrayList<>();
        private String action = "reboot";
        private String plug;
        private boolean portAsIp;
        private String timeout;
        private String separator = ",";
        private boolean verbose;
        private boolean quiet;
        private boolean help;
        private boolean version;

        private Call(FenceAgentProvider provider) {
            this.provider = provider;
        }

        /** What {@code options} say to the agent of {@code provider}. */
        static Call of(FenceAgentProvider provider, List<ProtocolInput.Option> options, String agent) {
            Call call = new Call(provider);
            options.forEach(option -> call.read(option, agent));
            return call;
        }

        void read(ProtocolInput.Option option, String agent) {
            String key = OLD_NAMES.getOrDefault(option.name(), option.name());
            String value = option.value();
            switch (key) {
                case "action" -> action = value;
                case ACTION_TIMEOUT -> timeout = value;
                case "separator" -> separator = value;
                case PORT_AS_IP -> portAsIp = isTrue(value);
                case "verbose" -> verbose = isTrue(value);
                case "quiet" -> quiet = isTrue(value);
                case "help" -> help = isTrue(value);
                case "version" -> version = isTrue(value);
                case "nodename", "nodeid", "verbose_level" -> {
                    // Pacemaker sends the target's name, and its id when it knows it, to every agent
                }
                default -> parameter(key, value, option.onCommandLine(), agent);
            }
        }

        private void parameter(String key, String value, boolean onCommandLine, String agent) {
            Optional<ParameterDescriptor> p = provider.parameters().stream().filter(d -> d.answersTo(key)).findFirst();
            if (p.isEmpty()) {
                if (key.equals("plug")) {
                    plug = value;
                } else {
                    warnings.add("ignoring unknown option '" + key + "' (" + agent + " -o metadata lists its options)");
                }
                return;
            }
            if (p.get().secret()) {
                if (onCommandLine) {
                    warnings.add("DISCOURAGED: the secret option '" + key + "' was given on the command line, where "
                            + "every user of this machine can read it in the process list; give it on stdin");
                }
                secrets.put(p.get().name(), value);
            } else {
                values.put(p.get().name(), value);
            }
        }

        /** With {@link #PORT_AS_IP}, the plug Pacemaker sent becomes the agent's {@code ip}, as fencing.py does. */
        void applyPortAsIp() {
            if (portAsIp && plug != null && hasPortAsIp(provider)) {
                provider.parameters().stream().filter(d -> d.answersTo("ip")).findFirst()
                        .ifPresent(ip -> values.put(ip.name(), plug));
            }
        }

        Map<String, String> plainValues() {
            return Map.copyOf(values);
        }

        AgentConfig config(FenceAgentProvider described) {
            AgentConfig.Builder builder = described.configure();
            values.forEach(builder::set);
            secrets.forEach(builder::set);
            return builder.build();
        }

        Duration budget() {
            if (timeout == null) {
                return DEFAULT_TIMEOUT;
            }
            Duration budget = Durations.parse(timeout, ParameterType.MAX_DURATION);
            if (budget.isZero()) {
                throw new IllegalArgumentException(ACTION_TIMEOUT + " '" + timeout + "' is zero; give a positive "
                        + "number of seconds, e.g. 50");
            }
            return budget;
        }

        private static boolean isTrue(String value) {
            return Set.of("1", "yes", "on", "true").contains(value.strip().toLowerCase(Locale.ROOT));
        }
    }

    /** The agent at work: one deadline for the whole call, its outcomes printed as {@code fencing.py} prints. */
    private final class Run {
        private final String name;
        private final FenceAgentProvider provider;
        private final AgentConfig config;
        private final FenceContext context;

        Run(String name, FenceAgentProvider provider, AgentConfig config, Duration budget, boolean verbose) {
            this.name = name;
            this.provider = provider;
            this.config = config;
            long start = time.nanoTime();
            this.context = FenceContext.start(time, budget, message -> {
                if (verbose) {
                    err.printf(Locale.ROOT, "%s: [%5.1fs] %s%n", name, (time.nanoTime() - start) / 1e9, message);
                }
            });
        }

        int act(String action, String separator) throws InterruptedException {
            try (FenceAgent agent = registry.create(config)) {
                return switch (action) {
                    case "on" -> power(agent, FenceAction.ON, "Success: Powered ON");
                    case "off" -> power(agent, FenceAction.OFF, "Success: Powered OFF");
                    case "reboot" -> ProtocolActions.rebootsByOffOn(provider) ? offThenOn(agent)
                            : power(agent, FenceAction.REBOOT, "Success: Rebooted");
                    case "status" -> status(agent);
                    case "list", ProtocolActions.LIST_STATUS -> list(agent, action.equals("list"), separator);
                    default -> monitor(agent);
                };
            }
        }

        private int power(FenceAgent agent, FenceAction action, String success) throws InterruptedException {
            FenceOutcome outcome = execute(agent, action);
            if (!outcome.isSuccess()) {
                return failed(action, outcome);
            }
            out.println(success);
            return OK;
        }

        /** {@code fencing.py}'s reboot: OFF must succeed (read back OFF); an ON that fails after it is only logged. */
        private int offThenOn(FenceAgent agent) throws InterruptedException {
            FenceOutcome off = execute(agent, FenceAction.OFF);
            if (!off.isSuccess()) {
                return failed(FenceAction.OFF, off);
            }
            FenceOutcome on = execute(agent, FenceAction.ON);
            if (!on.isSuccess()) {
                err.println(name + ": ERROR: the target is off (fenced) but did not power on again: " + on.detail());
            }
            out.println("Success: Rebooted");
            return OK;
        }

        private int status(FenceAgent agent) throws InterruptedException {
            FenceOutcome outcome = execute(agent, FenceAction.STATUS);
            if (!outcome.isSuccess()) {
                return failed(FenceAction.STATUS, outcome);
            }
            if (outcome.power() != PowerState.ON && outcome.power() != PowerState.OFF) {
                err.println(name + ": Failed: Unable to obtain correct plug status or plug is not available ("
                        + outcome.detail() + ")");
                return FAILED;
            }
            out.println("Status: " + outcome.power());
            return outcome.power() == PowerState.OFF ? STATUS_OFF : OK;
        }

        private int list(FenceAgent agent, boolean plain, String separator) throws InterruptedException {
            FenceOutcome outcome = execute(agent, FenceAction.LIST);
            if (!outcome.isSuccess()) {
                return failed(FenceAction.LIST, outcome);
            }
            for (Plug plug : outcome.plugs()) {
                String power = plug.power() == PowerState.ON || plug.power() == PowerState.OFF ? plug.power().name()
                        : "UNKNOWN";
                out.println(plug.id() + separator + plug.alias() + (plain ? "" : separator + power));
            }
            return OK;
        }

        private int monitor(FenceAgent agent) throws InterruptedException {
            FenceAction check = provider.supportedActions().contains(FenceAction.MONITOR) ? FenceAction.MONITOR
                    : FenceAction.STATUS;
            FenceOutcome outcome = execute(agent, check);
            return outcome.isSuccess() ? OK : failed(check, outcome);
        }

        private FenceOutcome execute(FenceAgent agent, FenceAction action) throws InterruptedException {
            return agent.execute(new FenceRequest(action, "pacemaker"), context);
        }

        private int failed(FenceAction action, FenceOutcome outcome) {
            String what = outcome.status() == FenceStatus.TIMED_OUT ? "Timed out" : outcome.status().name()
                    .toLowerCase(Locale.ROOT).replace('_', ' ');
            err.println(name + ": Failed: " + action.code().toUpperCase(Locale.ROOT) + " " + what + ": "
                    + outcome.detail());
            return FAILED;
        }
    }
}
