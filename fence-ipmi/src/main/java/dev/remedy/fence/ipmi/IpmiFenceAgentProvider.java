package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.internal.client.IpmiClient;
import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code ipmi} agent: power control of a server through its BMC over IPMI v2.0 (RMCP+, lanplus), with
 * remedy's own client instead of {@code ipmitool}, so no password ever reaches a command line. Parameters carry
 * the names of {@code fence_ipmilan}. All agents of one provider share one {@link IpmiTransport} (one I/O thread),
 * created at the first {@link #create}; pass a transport of your own to the constructor to choose its threads.
 * Progress messages of an action are reported on the transport's I/O thread: keep progress listeners short.
 */
@AgentType(IpmiFenceAgentProvider.TYPE)
public final class IpmiFenceAgentProvider implements FenceAgentProvider, AutoCloseable {

    /** The type id. */
    public static final String TYPE = "ipmi";

    private static final List<ParameterDescriptor> PARAMETERS = List.of(
            ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ip")
                    .description("host name or address of the BMC").build(),
            ParameterDescriptor.builder("ipport", ParameterType.INTEGER).defaultValue("623").fenceAgentsName("ipport")
                    .description("UDP port of the BMC").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).required().fenceAgentsName("username")
                    .description("IPMI user name (at most 16 ASCII characters)").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).required().secret()
                    .fenceAgentsName("password").description("IPMI password (at most 20 bytes)").build(),
            ParameterDescriptor.builder("lanplus", ParameterType.BOOLEAN).defaultValue("true")
                    .fenceAgentsName("lanplus").description("use IPMI v2.0 (RMCP+); must stay true: v1.5 is not "
                            + "supported").build(),
            ParameterDescriptor.builder("cipher", ParameterType.INTEGER).fenceAgentsName("cipher")
                    .description("cipher suite: 17 (SHA-256) or 3 (SHA-1); unset asks the BMC for its suites and uses"
                            + " the strongest of 17 and 3 it has (remembered per BMC and user)").build(),
            ParameterDescriptor.builder("allow_insecure_cipher", ParameterType.BOOLEAN).defaultValue("false")
                    .description("allow cipher=0, which has no authentication at all").build(),
            ParameterDescriptor.builder("privlvl", ParameterType.CHOICE).defaultValue("administrator")
                    .allowedValues("callback", "user", "operator", "administrator").fenceAgentsName("privlvl")
                    .description("privilege level to ask for; power control needs operator").build(),
            ParameterDescriptor.builder("hexadecimal_kg", ParameterType.STRING).secret()
                    .fenceAgentsName("hexadecimal_kg").description("BMC key (Kg) in hexadecimal, if the BMC has one")
                    .build(),
            ParameterDescriptor.builder("method", ParameterType.CHOICE).defaultValue("onoff")
                    .allowedValues("onoff", "cycle").fenceAgentsName("method")
                    .description("reboot as off (confirmed) then on, or as one power cycle that succeeds only if "
                            + "an OFF is observed").build(),
            ParameterDescriptor.builder("power_wait", ParameterType.DURATION).defaultValue("0s")
                    .fenceAgentsName("power_wait").description("wait after a power command before the first "
                            + "status poll").build(),
            ParameterDescriptor.builder("power_timeout", ParameterType.DURATION).defaultValue("20s")
                    .fenceAgentsName("power_timeout").description("how long to poll for the new power state")
                    .build(),
            ParameterDescriptor.builder("login_timeout", ParameterType.DURATION).defaultValue("5s")
                    .fenceAgentsName("login_timeout").description("how long session setup may take").build(),
            ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("250ms")
                    .description("time between status polls while waiting for a power change").build(),
            ParameterDescriptor.builder("retransmit_interval", ParameterType.DURATION).defaultValue("250ms")
                    .description("wait for an answer before the first resend; doubles per resend, at most 2s")
                    .build(),
            ParameterDescriptor.builder("soft_off_timeout", ParameterType.DURATION).defaultValue("0s")
                    .description("if not zero, OFF first asks the OS to shut down (ACPI soft off) and waits this "
                            + "long before powering down hard").build(),
            ParameterDescriptor.builder("session_reuse", ParameterType.BOOLEAN).defaultValue("false")
                    .description("keep the session open between actions of one agent (repeated STATUS polls)")
                    .build());

    private final IpmiClient client;
    private volatile IpmiClient shared;

    /** The provider ServiceLoader uses: its agents share a transport created at the first {@link #create}. */
    public IpmiFenceAgentProvider() {
        this.client = null;
    }

    /** A provider whose agents use {@code transport}; the caller closes it. */
    public IpmiFenceAgentProvider(IpmiTransport transport) {
        this.client = Objects.requireNonNull(transport, "transport").client();
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "server power through its BMC over IPMI v2.0 (RMCP+), like fence_ipmilan without ipmitool";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return PARAMETERS;
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.of(FenceAction.ON, FenceAction.OFF, FenceAction.REBOOT, FenceAction.STATUS,
                FenceAction.MONITOR);
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        IpmiSettings settings = IpmiSettings.of(config);
        return new IpmiFenceAgent(client(), settings);
    }

    /** The checks of {@link #create}, without starting the transport's I/O thread. */
    @Override
    public List<ConfigProblem> validate(AgentConfig config) {
        try {
            IpmiSettings.of(config);
            return List.of();
        } catch (InvalidConfigurationException e) {
            return e.problems();
        }
    }

    private IpmiClient client() {
        if (client != null) {
            return client;
        }
        IpmiClient current = shared;
        if (current == null) {
            synchronized (this) {
                current = shared;
                if (current == null) {
                    current = IpmiClient.create();
                    shared = current;
                }
            }
        }
        return current;
    }

    /**
     * Stops the transport this provider created for its agents, if it created one (never a transport given to the
     * constructor, which its caller closes); agents created before can no longer act. A one-shot process calls it
     * before it exits, since the JVM waits for an I/O thread that is blocked in the kernel before it can stop.
     * Idempotent; a later {@link #create} starts a new transport.
     */
    @Override
    public void close() {
        IpmiClient current;
        synchronized (this) {
            current = shared;
            shared = null;
        }
        if (current != null) {
            current.close();
        }
    }
}
