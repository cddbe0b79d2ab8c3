package dev.remedy.cli;

import dev.remedy.cli.fenceagents.Launchers;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.Durations;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code remedy fence-agents install [DIR]}: remedy's agents as ClusterLabs fence agents that Pacemaker runs. */
@Command(name = "fence-agents", mixinStandardHelpOptions = true,
        description = "remedy's agents as ClusterLabs fence agents (fence_remedy_<type>) for Pacemaker.",
        subcommands = FenceAgentsCommand.Install.class)
final class FenceAgentsCommand implements Runnable {

    @ParentCommand
    private RemedyCli cli;

    @Override
    public void run() {
        throw new UserError("fence-agents: a command is required: 'remedy fence-agents install [DIR]'");
    }

    /** {@code remedy fence-agents install [DIR]}. */
    @Command(name = "install", mixinStandardHelpOptions = true,
            description = {"Write one launcher per agent, fence_remedy_<type> ('-' in a type becomes '_'), into DIR.",
                "Each runs java on remedy.jar and speaks the fence-agents protocol: options on stdin (where "
                        + "Pacemaker puts them, secrets included) or as --key=value flags; -o metadata."},
            footer = {"", "A file in DIR with a launcher's name that remedy did not write is never replaced."})
    static final class Install implements Callable<Integer> {

        /** The longest idle time of a resident server. */
        private static final Duration MAX_IDLE = Duration.ofDays(7);

        @ParentCommand
        private FenceAgentsCommand parent;

        @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "/usr/sbin",
                description = "where to write them; Pacemaker looks in /usr/sbin (default: ${DEFAULT-VALUE})")
        private Path dir;

        @Option(names = "--type", paramLabel = "TYPE", description = "only the launcher of this agent type "
                + "(repeatable; default: every agent 'remedy agents' lists)")
        private List<String> types = new ArrayList<>();

        @Option(names = "--jar", paramLabel = "PATH", description = "the remedy.jar the launchers run (default: the "
                + "one running this command)")
        private Path jar;

        @Option(names = "--resident", description = "calls go to a resident agent server (one JVM per remedy.jar, "
                + "started by the first device action, on 127.0.0.1 only), so that each call costs a connection "
                + "instead of a JVM start; without it every call runs a JVM of its own and nothing stays running")
        private boolean resident;

        @Option(names = "--idle", paramLabel = "DURATION", defaultValue = "10m", description = "with --resident: how "
                + "long the server stays without a call, 1s to 7d (default: ${DEFAULT-VALUE})")
        private String idle;

        @Override
        public Integer call() {
            CliEnvironment env = parent.cli.environment();
            Launchers.Residence residence = resident ? Launchers.Residence.resident(idle())
                    : Launchers.Residence.ONE_SHOT;
            List<FenceAgentProvider> providers = types.isEmpty() ? env.registry().providers()
                    : types.stream().map(env.registry()::provider).toList();
            Path remedyJar = jar == null ? runningJar() : jar.toAbsolutePath();
            if (!Files.isRegularFile(remedyJar)) {
                throw new UserError("fence-agents install: --jar " + remedyJar + " is not a file; give the path "
                        + "of remedy.jar");
            }
            Path java = Launchers.java(env.variables());
            for (Path file : Launchers.install(dir.toAbsolutePath(), providers, java, remedyJar,
                    residence)) {
                env.out().println("wrote " + file);
            }
            env.out().println("they run " + java + " on " + remedyJar + "; install again after moving either");
            if (resident) {
                env.out().println("their first device action starts the agent server, which stops after " + idle
                        + " without a call; " + remedyJar + ".agent-server says where it listens");
            }
            return ExitCodes.OK;
        }

        /** The server's idle time: at least a second (it checks each second), at most a week. */
        private Duration idle() {
            try {
                Duration parsed = Durations.parse(idle, MAX_IDLE);
                if (parsed.compareTo(Duration.ofSeconds(1)) < 0) {
                    throw new IllegalArgumentException("'" + idle + "' is shorter than 1s");
                }
                return parsed;
            } catch (IllegalArgumentException e) {
                throw new UserError("fence-agents install: --idle: " + e.getMessage() + "; give a duration from 1s "
                        + "to 7d, such as 10m or 1h");
            }
        }

        private static Path runningJar() {
            try {
                Path location = Path.of(RemedyCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (Files.isRegularFile(location) && location.getFileName().toString().endsWith(".jar")) {
                    return location.toAbsolutePath();
                }
            } catch (URISyntaxException | SecurityException | NullPointerException e) {
                // not run from a jar: the user names it
            }
            throw new UserError("fence-agents install: this command does not run from remedy.jar, so the launchers "
                    + "would have nothing to run; give --jar PATH of remedy.jar");
        }
    }
}
