package dev.remedy.spi;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The service that {@link java.util.ServiceLoader} discovers: a cheap factory that describes one agent type
 * and creates configured agents. Register an implementation in
 * {@code META-INF/services/dev.remedy.spi.FenceAgentProvider}; {@code new XProvider().create(config)} works
 * without ServiceLoader too.
 *
 * <p>Implementations have a public no-argument constructor that does no I/O, and are thread-safe.
 */
public interface FenceAgentProvider {

    /** The SPI version this build of remedy implements. */
    int SPI_VERSION = 1;

    /**
     * The stable id of this agent type, lower case ({@code [a-z][a-z0-9-]*}), for example {@code "ipmi"}.
     * Agents are chosen by this id; two providers with one id are an error.
     */
    String type();

    /** The SPI version this provider was built against; the registry refuses providers newer than itself. */
    default int spiVersion() {
        return SPI_VERSION;
    }

    /** One line saying what the agent fences and how. */
    String description();

    /** Every parameter the agent accepts, in the order a user would read them. */
    List<ParameterDescriptor> parameters();

    /** The actions {@link FenceAgent#execute} implements; others answer {@link FenceStatus#UNSUPPORTED}. */
    Set<FenceAction> supportedActions();

    /**
     * What this agent's fencing does: {@link FencingKind#POWER} unless it says otherwise. The kind and
     * {@link #supportedActions()} must agree, or the registry refuses the provider: a {@link FencingKind#FABRIC}
     * agent must not list {@link FenceAction#REBOOT} (the machine keeps running); a {@link FencingKind#SOFT} agent
     * supports {@link FenceAction#REBOOT} (and {@link FenceAction#STATUS} and {@link FenceAction#MONITOR}) but not
     * {@link FenceAction#OFF} or {@link FenceAction#ON}.
     */
    default FencingKind fencingKind() {
        return FencingKind.POWER;
    }

    /**
     * Whether the isolation an OFF of this agent, configured with {@code config}, sets up outlives a restart of the
     * device that holds it (a switch reload, a fabric controller failover): a port disabled in the saved or
     * persistent configuration, not only in the running one. Asked of {@link FencingKind#FABRIC} agents: the engine
     * warns about a fabric level whose isolation does not persist, and a topology may release workloads after
     * isolation ({@code releaseAfter: isolation}) only with fabric methods whose isolation persists. Does no I/O
     * (it may read a local file the configuration names). The default, {@code false}, is the safe answer for an agent
     * that cannot tell.
     */
    default boolean isolationPersists(AgentConfig config) {
        return false;
    }

    /**
     * Creates an agent. Does no I/O: reachability is checked by {@link FenceAgent#validate}.
     *
     * <p>The agent is returned as it is: its texts are as safe as its own code and whatever the device sends it.
     * {@link dev.remedy.spi.discovery.FenceAgentRegistry#create} (which the engine and the CLI use) wraps it so that
     * every configured secret is masked in them, echoed by a device or not.
     *
     * @throws InvalidConfigurationException listing every problem in {@code config} at once
     */
    FenceAgent create(AgentConfig config);

    /**
     * Every problem {@link #create} would refuse {@code config} for, without keeping an agent: what
     * {@link AgentConfig#validate()} finds and the agent's own checks (ranges, lengths, values that exclude each
     * other). Readers of configuration files call it as a file is loaded, so that a value the agent refuses is
     * reported with its file and place, before any node is fenced. Does no network I/O; it may read a local file
     * the configuration names (a device profile). Thread-safe.
     *
     * <p>The default creates an agent and closes it at once; a provider whose {@code create} takes resources (a
     * transport, threads) overrides it to run its checks alone.
     *
     * @return every problem; empty if {@code config} is valid
     */
    default List<ConfigProblem> validate(AgentConfig config) {
        try {
            create(config).close();
            return List.of();
        } catch (InvalidConfigurationException e) {
            return e.problems();
        }
    }

    /**
     * The provider that describes a configuration with these plain {@code values}: this one, unless the agent's
     * parameters depend on one of them, as those of the fence-agents bridge depend on the ClusterLabs agent its
     * {@code agent} names. The answer has this provider's {@link #type()}, and its {@link #parameters()} (and
     * {@link #configure()}) are the ones to read and check such a configuration with. Readers of configuration
     * ask it once per method template, before they read its parameters. Does no network I/O (it may run a local
     * program to read what it describes) and may cache its answers. Thread-safe.
     *
     * @throws InvalidConfigurationException if {@code values} name something that cannot be described (an agent
     *                                       that is not installed), with each problem at its parameter
     */
    default FenceAgentProvider specialise(Map<String, String> values) {
        return this;
    }

    /** A configuration builder that knows this agent's parameters. */
    default AgentConfig.Builder configure() {
        return AgentConfig.builder(type(), parameters());
    }
}
