package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.FenceContext;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.DidYouMean;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ClusterLabs agents of one directory, described from their metadata: each agent's {@code action=metadata} is
 * run once (on standard input, bounded in time and size) and its description kept; an agent that cannot be
 * described is not remembered, so installing it later is noticed. Thread-safe.
 */
public final class Catalog {

    /** How long an agent may take to print its metadata. */
    public static final Duration METADATA_TIMEOUT = Duration.ofSeconds(15);
    /** The most metadata read from one agent. */
    public static final int METADATA_CAP = 1024 * 1024;

    private static final Pattern AGENT_NAME = Pattern.compile("fence_[a-z0-9_]+");
    private static final int MAX_LISTED = 10_000;

    private final Path directory;
    private final AgentRunner runner;
    private final String type;
    private final Map<String, AgentDescription> described = new ConcurrentHashMap<>();

    /** The agents of {@code directory}, run by {@code runner}, for the agent type {@code type}. */
    public Catalog(Path directory, AgentRunner runner, String type) {
        this.directory = directory.toAbsolutePath().normalize();
        this.runner = runner;
        this.type = type;
    }

    /** The directory the agents are looked up in. */
    public Path directory() {
        return directory;
    }

    /** The runner of the agents' processes. */
    public AgentRunner runner() {
        return runner;
    }

    /** The {@code agent} parameter: which ClusterLabs agent to run. */
    public ParameterDescriptor agentParameter() {
        return ParameterDescriptor.builder(AgentDescription.AGENT, ParameterType.STRING).required()
                .description("the ClusterLabs agent to run, fence_ and its name, installed in " + directory
                        + " (fence_ipmilan, fence_redfish, fence_aws...)").build();
    }

    /**
     * The description of {@code agent}, read from its metadata the first time.
     *
     * @throws InvalidConfigurationException with the problem at {@code agent}: a name that is not an agent's, an
     *                                       agent that is not installed, metadata that cannot be read
     */
    public AgentDescription describe(String agent) {
        if (!AGENT_NAME.matcher(agent).matches()) {
            throw problem("'" + agent + "' is not the name of a ClusterLabs agent", "give fence_ followed by lower-case"
                    + " letters, digits and underscores, such as fence_ipmilan");
        }
        Path executable = directory.resolve(agent);
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            String near = DidYouMean.nearest(agent, installed()).map(n -> "did you mean '" + n + "'? ").orElse("");
            throw problem("'" + agent + "' is not installed: " + executable + " is not an executable file", near
                    + "install the fence-agents package (Debian: apt-get install fence-agents) or name an installed"
                    + " agent");
        }
        return described.computeIfAbsent(agent, name -> read(name, executable));
    }

    private AgentDescription read(String agent, Path executable) {
        AgentRunner.Result result;
        try {
            result = runner.run(executable, "action=metadata\n",
                    FenceContext.start(TimeSource.system(), METADATA_TIMEOUT), METADATA_CAP, line -> { });
        } catch (IOException e) {
            throw problem("cannot run " + executable + " to read its metadata: " + e.getMessage(), "check that it "
                    + "is a ClusterLabs agent that runs on this machine");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw problem("reading the metadata of " + agent + " was interrupted", "try again");
        }
        String hint = "check that " + executable + " is a ClusterLabs agent: 'echo action=metadata | " + executable
                + "' prints its <resource-agent> metadata";
        if (result.timedOut()) {
            throw problem(agent + " did not print its metadata within " + METADATA_TIMEOUT.toSeconds() + " s", hint);
        }
        if (result.exitCode() != 0) {
            throw problem(agent + " failed to print its metadata (exit code " + result.exitCode() + ")"
                    + lastLine(result.stderr()), hint);
        }
        if (result.truncated()) {
            throw problem(agent + " printed more than " + METADATA_CAP / 1024 + " KiB of metadata", hint);
        }
        try {
            return AgentDescription.of(executable, AgentMetadata.parse(result.stdout()), agentParameter());
        } catch (IllegalArgumentException e) {
            throw problem("the metadata " + agent + " printed " + e.getMessage(), hint);
        }
    }

    private static String lastLine(List<String> lines) {
        return lines.stream().filter(l -> !l.isBlank()).reduce((a, b) -> b).map(l -> ": " + l.strip()).orElse("");
    }

    private List<String> installed() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.limit(MAX_LISTED).map(p -> p.getFileName().toString())
                    .filter(n -> AGENT_NAME.matcher(n).matches()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private InvalidConfigurationException problem(String problem, String hint) {
        return new InvalidConfigurationException(type, List.of(new ConfigProblem(AgentDescription.AGENT, problem,
                hint)));
    }
}
