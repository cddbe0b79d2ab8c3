package dev.remedy.cli;

import dev.remedy.simulators.ssh.DeviceKind;
import dev.remedy.simulators.ssh.SshDeviceSimulator;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Demo step 10: the SSH agents against the simulated devices of remedy-simulators on 127.0.0.1 (real SSH, host keys pinned):
 * a node with two power supplies on an APC PDU that asks for confirmation, the same PDU with a changed host key,
 * a Cisco IOS switch port isolated and un-fenced, and a Linux host soft-fenced by SysRq with a new boot id.
 */
final class SshDemo {

    private static final String PASSWORD = "demo-ssh-secret";

    private SshDemo() {
    }

    /** Runs the step and returns whether everything ended as expected. */
    static boolean run(CliEnvironment env, ActionRunner runner) throws InterruptedException {
        PrintWriter out = env.out();
        out.println("-- 10. SSH: device profiles as data, over real SSH on 127.0.0.1 with pinned host keys");
        boolean expected;
        try (SshDeviceSimulator pdu = start(SshDeviceSpec.builder().confirmations(true))) {
            out.println("-- 10a. OFF a node with two power supplies (APC outlets 3 and 4; the PDU asks 'Enter YES')");
            out.flush();
            AgentConfig node = config(env.registry().provider("ssh"), pdu, "apc").set("plug", "3,4").build();
            expected = DemoCommand.report(out, runner.run(node, FenceAction.OFF, Duration.ofSeconds(10)),
                    ExitCodes.OK);
            boolean bothOff = pdu.device().port("3").power() == PowerState.OFF
                    && pdu.device().port("4").power() == PowerState.OFF;
            out.println("   outlets 3 and 4 read OFF on the PDU: " + bothOff);
            expected &= bothOff;

            pdu.rotateHostKey();
            out.println("-- 10b. the PDU's host key changed: REFUSED, nothing switched, the new fingerprint printed");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(node, FenceAction.ON, Duration.ofSeconds(10)),
                    ExitCodes.REFUSED);
        }
        try (SshDeviceSimulator sw = start(SshDeviceSpec.builder().device(DeviceKind.CISCO_IOS).ports(24))) {
            AgentConfig port = config(env.registry().provider("ssh-fabric"), sw, "cisco-ios")
                    .set("plug", "GigabitEthernet1/0/5").build();
            out.println("-- 10c. fabric fencing: shut the node's switch port (OFF), then un-fence it (ON)");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(port, FenceAction.OFF, Duration.ofSeconds(10)),
                    ExitCodes.OK);
            expected &= DemoCommand.report(out, runner.run(port, FenceAction.ON, Duration.ofSeconds(10)),
                    ExitCodes.OK);
        }
        try (SshDeviceSimulator host = start(SshDeviceSpec.builder().device(DeviceKind.LINUX_HOST)
                .rebootTime(Duration.ofMillis(500)))) {
            out.println("-- 10d. soft fencing: the host reboots itself by SysRq; a new boot id confirms it");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(config(env.registry().provider("ssh-host"), host,
                    "linux-sysrq").build(), FenceAction.REBOOT, Duration.ofSeconds(10)), ExitCodes.OK);
            out.println("   reboots the host saw: " + host.device().reboots());
            expected &= host.device().reboots() == 1;
        }
        return expected;
    }

    private static SshDeviceSimulator start(SshDeviceSpec.Builder spec) {
        return SshDeviceSimulator.start(spec.user("fence", PASSWORD).build());
    }

    private static AgentConfig.Builder config(FenceAgentProvider provider, SshDeviceSimulator device, String profile) {
        return provider.configure().set("ip", device.host()).set("ipport", Integer.toString(device.port()))
                .set("username", "fence").secret("password", Secret.of(PASSWORD)).set("profile", profile)
                .set("host_key_fingerprint", device.hostKeyFingerprint()).set("poll_interval", "50ms");
    }
}
