package dev.remedy.fence.redfish;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.List;

/**
 * The {@code redfish-pdu} agent: a PDU outlet switched over Redfish ({@code PowerEquipment/RackPDUs}, the
 * {@code Outlet.PowerControl} action), with the same connection parameters, sessions, retries and TLS trust as
 * the {@code redfish} agent. OFF is confirmed by reading the outlet's {@code PowerState} back.
 */
@AgentType(RedfishPduAgentProvider.TYPE)
public final class RedfishPduAgentProvider extends RedfishAgentProvider {

    /** The type id. */
    public static final String TYPE = "redfish-pdu";

    private static final List<ParameterDescriptor> OUTLET = List.of(
            ParameterDescriptor.builder("pdu", ParameterType.STRING)
                    .description("Id of the rack PDU; may be left out only when the service has one").build(),
            ParameterDescriptor.builder("plug", ParameterType.STRING).required().fenceAgentsName("plug")
                    .description("Id of the outlet, e.g. 7").build());

    /** Describes the {@code redfish-pdu} agent. */
    public RedfishPduAgentProvider() {
        super(TYPE, OUTLET, OutletTarget::new);
    }

    @Override
    public String description() {
        return "a PDU outlet switched over Redfish (PowerEquipment, Outlet.PowerControl)";
    }
}
