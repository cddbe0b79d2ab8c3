package dev.remedy.fence.snmp;

import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpdProcess;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snmp agent keeps the contract against Debian's snmpd (v2c, profile apc on the emulated rack PDU behind
 * pass_persist), the outlet observed through the device's state file. The community is the kit's password: snmpd does
 * not answer a wrong one. No echoing device: snmpd answers with the emulator's values, and the in-JVM conformance
 * tests cover a device that answers with a secret.
 */
class SnmpdConformanceIT extends LoopbackConformanceKit {

    private static final String COMMUNITY = "conformance-snmpd";

    @TempDir
    static Path work;

    private static SnmpdProcess snmpd;

    @BeforeAll
    static void start() {
        snmpd = SnmpdProcess.start(work, SnmpDeviceSpec.of("pdu-kit", SnmpDeviceKind.APC_RACK_PDU, 4), COMMUNITY,
                List.of());
    }

    @AfterAll
    static void stop() {
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return new SnmpFenceAgentProvider();
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return provider().configure().set("ip", snmpd.host()).set("ipport", Integer.toString(port))
                .secret("community", Secret.of(password)).set("profile", "apc").set("plug", "3")
                .set("poll_interval", "50ms").set("reboot_off_time", "200ms").build();
    }

    @Override
    protected int port() {
        return snmpd.port();
    }

    @Override
    protected String password() {
        return COMMUNITY;
    }

    /** A UDP port of loopback that was free a moment ago: nothing answers there. */
    @Override
    protected int unreachablePort() {
        return SnmpConformanceKit.freeUdpPort();
    }

    @Override
    protected PowerTarget target() {
        return snmpd.outlet(3);
    }
}
