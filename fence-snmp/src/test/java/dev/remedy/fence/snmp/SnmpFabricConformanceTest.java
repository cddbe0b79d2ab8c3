package dev.remedy.fence.snmp;

import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;

/**
 * The snmp-fabric agent with the if-mib profile keeps the contract, fabric checks included, on a switch port given by
 * its ifName (the emulated switch numbers ifIndex from 10101, so the agent must look the name up).
 */
class SnmpFabricConformanceTest extends SnmpConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new SnmpFabricAgentProvider();
    }

    @Override
    SnmpDeviceSpec device() {
        return SnmpDeviceSpec.of("switch", SnmpDeviceKind.IF_MIB_SWITCH, 24);
    }

    @Override
    SnmpAgentSimulator.Access access(String secret) {
        return SnmpAgentSimulator.Access.community(secret);
    }

    @Override
    AgentConfig config(String host, int port, String secret) {
        return provider().configure().set("ip", host).set("ipport", Integer.toString(port))
                .secret("community", Secret.of(secret)).set("profile", "if-mib").set("plug", plug())
                .set("poll_interval", "50ms").build();
    }

    @Override
    String plug() {
        return "Gi1/0/3";
    }

    @Override
    int outlet() {
        return 3;
    }

    @Override
    String statusOid() {
        return "1.3.6.1.2.1.2.2.1.7.10103";
    }
}
