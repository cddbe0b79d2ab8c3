package dev.remedy.fence.ssh;

import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.FenceAgentProvider;

/** The ssh agent with the apc profile keeps the fence-agent contract against an outlet of a simulated PDU. */
class SshAgentConformanceTest extends SshConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new SshFenceAgentProvider();
    }

    @Override
    SshDeviceSpec.Builder device() {
        return SshDeviceSpec.builder().confirmations(true);
    }

    @Override
    String profile() {
        return "apc";
    }

    @Override
    String plug() {
        return "3";
    }
}
