package dev.remedy.fence.ssh;

import dev.remedy.simulators.ssh.DeviceKind;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.FenceAgentProvider;

/** The ssh-fabric agent with the cisco-ios profile keeps the contract, fabric checks included, on a switch port. */
class SshFabricConformanceTest extends SshConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new SshFabricAgentProvider();
    }

    @Override
    SshDeviceSpec.Builder device() {
        return SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS);
    }

    @Override
    String profile() {
        return "cisco-ios";
    }

    @Override
    String plug() {
        return "GigabitEthernet1/0/3";
    }
}
