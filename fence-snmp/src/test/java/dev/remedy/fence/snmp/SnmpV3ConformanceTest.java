package dev.remedy.fence.snmp;

import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;

/**
 * The snmp agent over SNMPv3 authPriv, SHA-256 and AES-256 (engine ID discovered), profile apc (which settles on the
 * MasterSwitch sPDU table), keeps the contract on an APC MasterSwitch outlet. Both passphrases are the kit's secret;
 * the wrong one makes the agent's USM drop the requests.
 */
class SnmpV3ConformanceTest extends SnmpConformanceKit {

    @Override
    protected FenceAgentProvider provider() {
        return new SnmpFenceAgentProvider();
    }

    @Override
    SnmpDeviceSpec device() {
        return SnmpDeviceSpec.of("master-switch", SnmpDeviceKind.APC_MASTER_SWITCH, 8);
    }

    @Override
    SnmpAgentSimulator.Access access(String secret) {
        return SnmpAgentSimulator.Access.users(SnmpAgentSimulator.User.authPriv("fence", "SHA-256", secret,
                "AES-256", secret));
    }

    @Override
    AgentConfig config(String host, int port, String secret) {
        return provider().configure().set("ip", host).set("ipport", Integer.toString(port)).set("snmp_version", "3")
                .set("username", "fence").set("snmp_auth_prot", "SHA-256").secret("password", Secret.of(secret))
                .set("snmp_priv_prot", "AES-256").secret("snmp_priv_passwd", Secret.of(secret))
                .set("profile", "apc").set("plug", plug()).set("poll_interval", "50ms")
                .set("reboot_off_time", "100ms").build();
    }

    @Override
    String plug() {
        return "2";
    }

    @Override
    int outlet() {
        return 2;
    }

    @Override
    String statusOid() {
        return "1.3.6.1.4.1.318.1.1.4.4.2.1.3.2";
    }
}
