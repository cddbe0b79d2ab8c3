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
 * The {@code redfish-pdu} agent: a PDU outlet switched over Redfish ({@code PowerEquipment/RackPDUs}, the
 * {@code Outlet.PowerControl} action), with the same connection parameters, sessions, retries and TLS trust as
 * the {@code redfish} agent. OFF is confirmed by reading the outlet's {@code PowerState} back.
 */
public final class RedfishPduAgentProvider implements FenceAgentProvider {

    /** The type id. */
    public static final String TYPE = "redfish-pdu";

    private static final List<ParameterDescriptor> PARAMETERS = Stream.concat(
            RedfishFenceAgentProvider.CONNECTION.stream(), Stream.of(
                    ParameterDescriptor.builder("pdu", ParameterType.STRING)
                            .description("Id of the rack PDU; may be left out only when the service has one").build(),
                    ParameterDescriptor.builder("plug", ParameterType.STRING).required().fenceAgentsName("plug")
                            .description("Id of the outlet, e.g. 7").build())).toList();

    private final RedfishTransport transport = new RedfishTransport();

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "a PDU outlet switched over Redfish (PowerEquipment, Outlet.PowerControl)";
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
        return transport.agent(RedfishSettings.of(config), new OutletTarget());
    }
}
