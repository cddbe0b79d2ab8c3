package dev.remedy.fence.ssh;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.testkit.ssh.DeviceKind;
import dev.remedy.testkit.ssh.SshDeviceSpec;

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
