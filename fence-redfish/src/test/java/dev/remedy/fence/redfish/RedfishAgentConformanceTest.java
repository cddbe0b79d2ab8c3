package dev.remedy.fence.redfish;

import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.PowerTarget;

/** The redfish agent keeps the fence-agent contract against the simulator's only system. */
class RedfishAgentConformanceTest extends RedfishConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new RedfishFenceAgentProvider();
    }

    @Override
    RedfishSpec.Builder service() {
        return RedfishSpec.builder().systems("node-1");
    }

    @Override
    AgentConfig.Builder target(AgentConfig.Builder config) {
        return config;
    }

    @Override
    PowerTarget target(RedfishSimulator service) {
        return service.system("node-1").powerTarget();
    }
}
