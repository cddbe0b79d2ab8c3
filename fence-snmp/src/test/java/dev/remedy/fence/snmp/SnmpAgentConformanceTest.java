package dev.remedy.fence.snmp;

import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;

/** The snmp agent, SNMP v2c, profile apc (which settles on rPDU2), keeps the contract on an APC rack PDU outlet. */
class SnmpAgentConformanceTest extends SnmpConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new SnmpFenceAgentProvider();
    }

    @Override
    SnmpDeviceSpec device() {
        return SnmpDeviceSpec.of("rack-pdu", SnmpDeviceKind.APC_RACK_PDU, 8);
    }

    @Override
    SnmpAgentSimulator.Access access(String secret) {
        return SnmpAgentSimulator.Access.community(secret);
    }

    @Override
    AgentConfig config(String host, int port, String secret) {
        return provider().configure().set("ip", host).set("ipport", Integer.toString(port))
                .secret("community", Secret.of(secret)).set("profile", "apc").set("plug", plug())
                .set("poll_interval", "50ms").set("reboot_off_time", "100ms").build();
    }

    @Override
    String plug() {
        return "5";
    }

    @Override
    int outlet() {
        return 5;
    }

    @Override
    String statusOid() {
        return "1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.5";
    }
}
