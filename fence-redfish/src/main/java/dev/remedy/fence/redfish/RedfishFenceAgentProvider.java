package dev.remedy.fence.redfish;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The {@code redfish} agent: server power through a DMTF Redfish service (BMC), with the parameter names of
 * {@code fence_redfish} and what it lacks: a timeout on every request, a refusal instead of a guess when several
 * systems exist and none is named, graceful shutdown before force off if asked, session login and logout, TLS
 * verification on by default. Agents of one provider share one HTTP client per TLS trust, on a small fixed pool
 * of daemon threads.
 */
public final class RedfishFenceAgentProvider implements FenceAgentProvider {

    /** The type id. */
    public static final String TYPE = "redfish";

    /** The connection parameters the system and the PDU agent share. */
    static final List<ParameterDescriptor> CONNECTION = List.of(
            ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ip")
                    .description("host name or address of the Redfish service (BMC)").build(),
            ParameterDescriptor.builder("ipport", ParameterType.INTEGER).defaultValue("443").fenceAgentsName("ipport")
                    .description("TCP port of the Redfish service").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).required().fenceAgentsName("username")
                    .description("Redfish account name").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).required().secret()
                    .fenceAgentsName("password").description("Redfish account password").build(),
            ParameterDescriptor.builder("ssl", ParameterType.BOOLEAN).defaultValue("true").fenceAgentsName("ssl")
                    .description("use HTTPS (false: plain HTTP, for test services only)").build(),
            ParameterDescriptor.builder("ssl_insecure", ParameterType.BOOLEAN).defaultValue("false")
                    .fenceAgentsName("ssl_insecure").description("skip TLS certificate verification (unsafe; "
                            + "warned on every use)").build(),
            ParameterDescriptor.builder("ca_file", ParameterType.STRING)
                    .description("PEM CA bundle to verify the service's certificate with").build(),
            ParameterDescriptor.builder("tls_fingerprint", ParameterType.STRING)
                    .description("SHA-256 fingerprint of the service's own certificate, trusted alone").build(),
            ParameterDescriptor.builder("auth", ParameterType.CHOICE).defaultValue("session")
                    .allowedValues("session", "basic").description("a SessionService session (logged out at the "
                            + "end; Basic if the service has none) or HTTP Basic on every request").build(),
            ParameterDescriptor.builder("power_timeout", ParameterType.DURATION).defaultValue("20s")
                    .fenceAgentsName("power_timeout").description("how long to poll PowerState for the new state")
                    .build(),
            ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("500ms")
                    .description("time between PowerState polls").build(),
            ParameterDescriptor.builder("request_timeout", ParameterType.DURATION).defaultValue("10s")
                    .description("timeout of every HTTP request (less when the action's deadline is nearer)")
                    .build());

    private static final List<ParameterDescriptor> PARAMETERS = Stream.concat(CONNECTION.stream(), Stream.of(
            ParameterDescriptor.builder("systems_uri", ParameterType.STRING).fenceAgentsName("systems_uri")
                    .description("path of the ComputerSystem, e.g. /redfish/v1/Systems/1").build(),
            ParameterDescriptor.builder("plug", ParameterType.STRING).fenceAgentsName("plug")
                    .description("Id of the ComputerSystem; may be left out only when the service has one system")
                    .build(),
            ParameterDescriptor.builder("graceful_off_timeout", ParameterType.DURATION).defaultValue("0s")
                    .description("if not zero, OFF first asks for GracefulShutdown and waits this long before "
                            + "ForceOff").build())).toList();

    private final RedfishTransport transport = new RedfishTransport();

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "server power through a DMTF Redfish service, like fence_redfish with timeouts, sessions and TLS checks";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return PARAMETERS;
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return EnumSet.allOf(FenceAction.class);
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        return transport.agent(RedfishSettings.of(config), new SystemTarget());
    }
}
