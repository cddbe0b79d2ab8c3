package dev.remedy.fence.clusterlabs;

import dev.remedy.fence.clusterlabs.internal.AgentDescription;
import dev.remedy.fence.clusterlabs.internal.AgentInput;
import dev.remedy.fence.clusterlabs.internal.AgentRunner;
import dev.remedy.fence.clusterlabs.internal.Catalog;
import dev.remedy.fence.clusterlabs.internal.ClusterLabsAgent;
import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code fence-agents} agent: runs a ClusterLabs fence agent ({@code fence_ipmilan}, {@code fence_aws}, … of
 * the fence-agents package), named by the parameter {@code agent}, as a process per action, with its options on
 * standard input (never on its command line or in its environment), in a process group of its own that is killed
 * at the action's deadline. OFF and ON succeed only once the agent's {@code status} reads the new state.
 *
 * <p>The parameters depend on the agent: {@link #specialise} with {@code agent=fence_NAME} runs the agent's
 * {@code action=metadata} once and answers a provider of the same type whose {@link #parameters()} are the agent's
 * (types, defaults, required ones, secrets), without {@code action}, the options that make no sense when remedy
 * runs it (verbosity, separators, {@code delay}) and the {@code *_script} options, which run a command and are
 * refused. This provider, not specialised, has the one parameter {@code agent}; its {@link #create} specialises
 * to the configuration's agent.
 *
 * <p>Agents are looked up in {@value #DEFAULT_DIRECTORY}, or the directory the system property
 * {@value #DIRECTORY_PROPERTY} names, or the one given to the constructor. Thread-safe; metadata is read once per
 * agent and provider (and the providers it specialises to).
 */
@AgentType(ClusterLabsFenceAgentProvider.TYPE)
public final class ClusterLabsFenceAgentProvider implements FenceAgentProvider {

    /** The type id. */
    public static final String TYPE = "fence-agents";
    /** Where the fence-agents package installs its agents. */
    public static final String DEFAULT_DIRECTORY = "/usr/sbin";
    /** The system property that names another directory of agents for the no-argument constructor. */
    public static final String DIRECTORY_PROPERTY = "remedy.fence-agents.directory";

    private final Catalog catalog;
    private final Optional<AgentDescription> agent;

    /** The provider ServiceLoader uses: agents in {@value #DEFAULT_DIRECTORY} or {@value #DIRECTORY_PROPERTY}. */
    public ClusterLabsFenceAgentProvider() {
        this(Path.of(System.getProperty(DIRECTORY_PROPERTY, DEFAULT_DIRECTORY)));
    }

    /** A provider of the agents installed in {@code agentDirectory}. Does no I/O. */
    public ClusterLabsFenceAgentProvider(Path agentDirectory) {
        this(new Catalog(agentDirectory, AgentRunner.system(), TYPE), Optional.empty());
    }

    private ClusterLabsFenceAgentProvider(Catalog catalog, Optional<AgentDescription> agent) {
        this.catalog = catalog;
        this.agent = agent;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return agent.map(a -> "ClusterLabs " + a.agent() + (a.shortdesc().isBlank() ? "" : " (" + a.shortdesc() + ")")
                + ", run as a process with its options on standard input; OFF and ON succeed once its status reads"
                + " them back").orElse("a ClusterLabs fence agent (fence_* of the fence-agents package, in "
                + catalog.directory() + "), run as a process with its options on standard input: give agent="
                + "fence_NAME, and that agent's parameters (from its metadata) are this agent's; OFF and ON succeed"
                + " once its status reads them back");
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return agent.map(AgentDescription::parameters).orElseGet(() -> List.of(catalog.agentParameter()));
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return agent.map(AgentDescription::actions).orElseGet(() -> EnumSet.allOf(FenceAction.class));
    }

    @Override
    public FencingKind fencingKind() {
        return agent.map(AgentDescription::kind).orElse(FencingKind.POWER);
    }

    /**
     * This type as it describes the ClusterLabs agent {@code values} name in {@code agent}: its parameters, actions
     * and kind from its metadata, read the first time (a local process, bounded to 15 s and 1 MiB); the provider
     * with only {@code agent} when none is named.
     *
     * @throws InvalidConfigurationException at {@code agent} if it is not an agent's name, is not installed or its
     *                                       metadata cannot be read; at each {@code *_script} option given, which
     *                                       would run a command
     */
    @Override
    public ClusterLabsFenceAgentProvider specialise(Map<String, String> values) {
        List<ConfigProblem> scripts = values.keySet().stream().filter(AgentDescription::runsCommand).sorted()
                .map(ClusterLabsFenceAgentProvider::refusedScript).toList();
        if (!scripts.isEmpty()) {
            throw new InvalidConfigurationException(TYPE, scripts);
        }
        String name = values.getOrDefault(AgentDescription.AGENT, "").strip();
        if (name.isEmpty()) {
            return agent.isEmpty() ? this : new ClusterLabsFenceAgentProvider(catalog, Optional.empty());
        }
        return new ClusterLabsFenceAgentProvider(catalog, Optional.of(catalog.describe(name)));
    }

    /**
     * An agent running the ClusterLabs agent {@code config} names in {@code agent}. A configuration built with another
     * provider of this type (this one not specialised, say) is read again with the parameters of its agent.
     *
     * @throws InvalidConfigurationException listing every problem: those of {@link AgentConfig#validate()}, an
     *                                       agent that cannot be described, a value with a line break (the agent
     *                                       reads one option per line), a {@code *_script} option
     */
    @Override
    public FenceAgent create(AgentConfig config) {
        requireValid(config);
        AgentDescription description = catalog.describe(config.string(AgentDescription.AGENT));
        AgentConfig described = config;
        if (!config.parameters().equals(description.parameters())) {
            AgentConfig.Builder builder = AgentConfig.builder(TYPE, description.parameters());
            for (ParameterDescriptor p : config.parameters()) {
                if (config.isSet(p.name())) {
                    builder.set(p.name(), p.secret() ? config.secret(p.name()).orElseThrow().reveal()
                            : config.text(p.name()).orElseThrow());
                }
            }
            described = requireValid(builder.build());
        }
        return new ClusterLabsAgent(TYPE, description, described, catalog.runner());
    }

    private static AgentConfig requireValid(AgentConfig config) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (ConfigProblem p : config.validate()) {
            boolean unknown = config.parameters().stream().noneMatch(d -> d.name().equals(p.path()));
            problems.add(unknown && AgentDescription.runsCommand(p.path()) ? refusedScript(p.path()) : p);
        }
        problems.addAll(AgentInput.problems(config));
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(TYPE, problems);
        }
        return config;
    }

    private static ConfigProblem refusedScript(String key) {
        return new ConfigProblem(key, "runs a command through a shell to find a secret, which remedy does not do",
                "give the secret itself as a secret parameter (password, from a file or an environment variable)");
    }
}
