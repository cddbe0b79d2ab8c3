package dev.remedy.cli;

import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpDevice;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpValue;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Demo step 11: a node with two power supplies on outlets 3 and 4 of an APC rack PDU, fenced by the {@code snmp}
 * agent over SNMPv3 (authPriv, SHA-256 and AES-128) against the in-JVM SNMP agent of remedy-simulators on 127.0.0.1:
 * OFF succeeds once both outlets read off, shown outlet by outlet; then, with outlet 4's relay stuck (the PDU keeps
 * reporting it on), OFF fails by its power_timeout instead of reporting a node that still has power as fenced.
 */
final class SnmpDemo {

    private static final String USER = "demo-fence";
    private static final String AUTH = "demo-snmp-auth-secret";
    private static final String PRIV = "demo-snmp-priv-secret";
    private static final int OUTLETS = 8;
    /** rPDU2OutletSwitchedStatusState of outlet 4: on(2). */
    private static final String OUTLET_4_STATUS = "1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.4";
    private static final int RPDU2_ON = 2;

    private SnmpDemo() {
    }

    /** Runs the step and returns whether everything ended as expected. */
    static boolean run(CliEnvironment env, ActionRunner runner) throws InterruptedException {
        PrintWriter out = env.out();
        out.println("-- 11. SNMP: a dual-PSU node on an APC rack PDU (the in-JVM SNMP agent of remedy-simulators on"
                + " 127.0.0.1), SNMPv3 authPriv with SHA-256 and AES-128");
        SnmpDevice device = SnmpDevice.create(SnmpDeviceSpec.of("demo-pdu", SnmpDeviceKind.APC_RACK_PDU, OUTLETS),
                Clock.systemUTC());
        try (SnmpAgentSimulator pdu = SnmpAgentSimulator.start(device, SnmpAgentSimulator.Access.users(
                SnmpAgentSimulator.User.authPriv(USER, "SHA-256", AUTH, "AES", PRIV)))) {
            AgentConfig node = env.registry().provider("snmp").configure().set("ip", pdu.host())
                    .set("ipport", Integer.toString(pdu.port())).set("snmp_version", "3").set("username", USER)
                    .set("snmp_sec_level", "authPriv").set("snmp_auth_prot", "SHA-256")
                    .secret("password", Secret.of(AUTH)).set("snmp_priv_prot", "AES")
                    .secret("snmp_priv_passwd", Secret.of(PRIV)).set("profile", "apc").set("plug", "3,4")
                    .set("poll_interval", "50ms").set("power_timeout", "1s").build();
            out.println("-- 11a. OFF the node (plug=3,4): each outlet switched and read back on its own");
            out.flush();
            boolean expected = DemoCommand.report(out, runner.run(node, FenceAction.OFF, Duration.ofSeconds(10)),
                    ExitCodes.OK);
            out.println("   on the PDU: " + outlets(device));
            expected &= power(device, 3) == PowerState.OFF && power(device, 4) == PowerState.OFF
                    && IntStream.rangeClosed(1, OUTLETS).filter(n -> n != 3 && n != 4)
                            .allMatch(n -> power(device, n) == PowerState.ON);

            out.println("-- 11b. power it back ON, then outlet 4's relay sticks: the PDU keeps reporting it on");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(node, FenceAction.ON, Duration.ofSeconds(10)),
                    ExitCodes.OK);
            pdu.answer(OUTLET_4_STATUS, SnmpValue.integer(RPDU2_ON));
            out.println("-- 11c. OFF again: outlet 3 reads off, outlet 4 still on, so OFF fails (power_timeout=1s);"
                    + " one supply off of two is never a success");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(node, FenceAction.OFF, Duration.ofSeconds(10)),
                    ExitCodes.FAILED);
            out.println("-- 11d. STATUS, outlet by outlet as the PDU reports them: the node still has power");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(node, FenceAction.STATUS, Duration.ofSeconds(10)),
                    ExitCodes.OK);
            return expected;
        }
    }

    private static PowerState power(SnmpDevice device, int outlet) {
        return device.outlet(outlet).power();
    }

    private static String outlets(SnmpDevice device) {
        return IntStream.rangeClosed(1, OUTLETS).mapToObj(n -> "outlet " + n + " " + power(device, n))
                .collect(Collectors.joining(", "));
    }
}
