package dev.remedy.fence.redfish;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.List;

/**
 * The {@code redfish} agent: server power through a DMTF Redfish service (BMC), with the parameter names of
 * {@code fence_redfish} and what it lacks: a timeout on every request, a refusal instead of a guess when several
 * systems exist and none is named, graceful shutdown before force off if asked, session login and logout, TLS
 * verification on by default. Agents of one provider share one HTTP client per TLS trust, on a small fixed pool
 * of daemon threads.
 */
@AgentType(RedfishFenceAgentProvider.TYPE)
public final class RedfishFenceAgentProvider extends RedfishAgentProvider {

    /** The type id. */
    public static final String TYPE = "redfish";

    private static final List<ParameterDescriptor> SYSTEM = List.of(
            ParameterDescriptor.builder("systems_uri", ParameterType.STRING).fenceAgentsName("systems_uri")
                    .description("path of the ComputerSystem, e.g. /redfish/v1/Systems/1").build(),
            ParameterDescriptor.builder("plug", ParameterType.STRING).fenceAgentsName("plug")
                    .description("Id of the ComputerSystem, or its Name when no Id matches; may be left out only "
                            + "when the service has one system")
                    .build(),
            ParameterDescriptor.builder("graceful_off_timeout", ParameterType.DURATION).defaultValue("0s")
                    .description("if not zero, OFF first asks for GracefulShutdown and waits this long before "
                            + "ForceOff").build());

    /** Describes the {@code redfish} agent. */
    public RedfishFenceAgentProvider() {
        super(TYPE, SYSTEM, SystemTarget::new);
    }

    @Override
    public String description() {
        return "server power through a DMTF Redfish service, like fence_redfish with timeouts, sessions and TLS checks";
    }
}
