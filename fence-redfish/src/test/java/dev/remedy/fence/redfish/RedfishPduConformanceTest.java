package dev.remedy.fence.redfish;

import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.PowerTarget;

/** The redfish-pdu agent keeps the fence-agent contract against an outlet of the simulator's Redfish PDU. */
class RedfishPduConformanceTest extends RedfishConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new RedfishPduAgentProvider();
    }

    @Override
    RedfishSpec.Builder service() {
        return RedfishSpec.builder().outlets("pdu-1", 8);
    }

    @Override
    AgentConfig.Builder target(AgentConfig.Builder config) {
        return config.set("plug", "3");
    }

    @Override
    PowerTarget target(RedfishSimulator service) {
        return service.outlet("pdu-1", 3).powerTarget();
    }
}
