package dev.remedy.cli;

import dev.remedy.cli.fenceagents.AgentServer;
import dev.remedy.cli.fenceagents.FenceAgentProtocol;
import dev.remedy.cli.fenceagents.NamedProvider;
import dev.remedy.spi.RemedyException;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code remedy} command. Errors are one line on stderr that names the input and what to do, with exit code
 * {@link ExitCodes#BAD_INPUT}; stack traces appear only with {@code --verbose}.
 */
@Command(name = "remedy", mixinStandardHelpOptions = true, version = "remedy 0.1.0",
        description = "Node remediation and fencing: list agents, run one agent action, check configuration files, "
                + "show a state directory, simulate policies, see the demo, run as a Kubernetes operator or as a "
                + "self-node-remediation node agent, install the agents as fence agents for Pacemaker.",
        subcommands = {AgentsCommand.class, FenceCommand.class, CheckCommand.class, StateCommand.class,
                DemoCommand.class, SimulateCommand.class, OperatorCommand.class, NodeAgentCommand.class,
                FenceAgentsCommand.class})
public final class RemedyCli implements Runnable {

    private final CliEnvironment environment;

    RemedyCli(CliEnvironment environment) {
        this.environment = environment;
    }

    CliEnvironment environment() {
        return environment;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "a command is required");
    }

    /**
     * Runs the command line and exits with its code. A launcher's call ({@value FenceAgentProtocol#COMMAND}) goes
     * straight to the fence-agents protocol, which reads its own arguments as the fence agents do; a resident
     * launcher's server ({@value AgentServer#COMMAND}) answers such calls over loopback.
     */
    public static void main(String[] args) {
        CliEnvironment env = CliEnvironment.system();
        if (args.length > 0 && args[0].equals(FenceAgentProtocol.COMMAND)) {
            System.exit(fenceAgent(Arrays.asList(args).subList(1, args.length), env));
        }
        if (args.length > 0 && args[0].equals(AgentServer.COMMAND)) {
            System.exit(AgentServer.main(Arrays.asList(args).subList(1, args.length), env::registry, env.time(),
                    env.err()));
        }
        CliLogging.install(Arrays.asList(args).contains("--verbose"), env.err());
        System.exit(execute(args, env));
    }

    /** Runs a launcher's call of the fence-agents protocol, reading stdin; returns the exit code. */
    private static int fenceAgent(List<String> args, CliEnvironment env) {
        try (CliLogging logging = CliLogging.install(false, env.err())) {
            // a launcher names its type first (--type T), then its provider class (--provider C): that class alone
            // is built, or else only that type's providers are loaded
            boolean typed = args.size() > 1 && args.get(0).equals("--type");
            List<String> protocolArgs = args;
            Optional<FenceAgentRegistry> named = Optional.empty();
            if (typed && args.size() > 3 && args.get(2).equals(NamedProvider.OPTION)) {
                named = NamedProvider.load(args.get(3), args.get(1), RemedyCli.class.getClassLoader());
                protocolArgs = new ArrayList<>(args.subList(0, 2));
                protocolArgs.addAll(args.subList(4, args.size()));
            }
            FenceAgentRegistry agents = named.orElseGet(() -> typed ? env.registry(args.get(1)) : env.registry());
            try {
                return new FenceAgentProtocol(agents, env.time(), env.out(), env.err()).main(protocolArgs,
                        new InputStreamReader(System.in, StandardCharsets.UTF_8));
            } finally {
                agents.closeProviders();
            }
        } catch (InterruptedException e) {
            env.err().println("remedy: interrupted; the action was stopped and its outcome is unknown");
            env.err().flush();
            return ExitCodes.FAILED;
        }
    }

    /** Runs the command line in {@code env} and returns the exit code. */
    public static int execute(String[] args, CliEnvironment env) {
        return execute(args, env, CommandLine.defaultFactory());
    }

    /** Runs the command line with the commands {@code factory} makes (a test's, to reach a running command). */
    static int execute(String[] args, CliEnvironment env, CommandLine.IFactory factory) {
        boolean verbose = Arrays.asList(args).contains("--verbose");
        CommandLine line = new CommandLine(new RemedyCli(env), factory);
        line.setOut(env.out()).setErr(env.err());
        line.setParameterExceptionHandler((e, ignored) -> {
            boolean inSubcommand = e.getCommandLine().getCommandSpec().parent() != null;
            String problem = e instanceof CommandLine.UnmatchedArgumentException unmatched
                    && !unmatched.isUnknownOption() && inSubcommand
                    ? unmatched.getUnmatched().size() + " unexpected argument(s) (not repeated here: one may be a secret)"
                    : e.getMessage();
            env.err().println("remedy: " + problem + ". Run '" + e.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help' for usage");
            return ExitCodes.BAD_INPUT;
        });
        line.setExecutionExceptionHandler((e, command, parsed) -> {
            int code;
            if (e instanceof InterruptedException) {
                env.err().println("remedy: interrupted; the action was stopped and its outcome is unknown");
                code = ExitCodes.FAILED;
            } else if (e instanceof InvalidConfigurationException) {
                env.err().println("remedy: " + e.getMessage() + ". Pass parameters with -p KEY=VALUE and secrets with"
                        + " --secret-env KEY=VARIABLE or --secret-file KEY=PATH; 'remedy agents' lists them");
                code = ExitCodes.BAD_INPUT;
            } else if (e instanceof RemedyException) {
                env.err().println("remedy: " + e.getMessage());
                code = ExitCodes.BAD_INPUT;
            } else {
                env.err().println("remedy: internal error: " + e + (verbose ? "" : "; run with --verbose for details")
                        + " and report it");
                code = ExitCodes.FAILED;
            }
            if (verbose) {
                e.printStackTrace(env.err());
            }
            env.err().flush();
            return code;
        });
        int code = line.execute(args);
        env.out().flush();
        env.err().flush();
        return code;
    }
}
