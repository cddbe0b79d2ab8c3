package dev.remedy.fence.clusterlabs;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.snmp.SnmpDeviceKind;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpUser;
import dev.remedy.simulators.snmp.SnmpdProcess;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClusterLabs' own {@code fence_apc_snmp} (fence-agents, through net-snmp's snmpget and snmpset), run by the
 * fence-agents agent, keeps the fence-agent contract against Debian's {@code snmpd} serving the emulated APC rack
 * PDU (sysObjectID {@code .1.3.6.1.4.1.318.1.3.4.5}, for which the agent uses the rPDU outlet table), outlet 1, over
 * SNMPv3 authPriv with SHA-1 and AES-128: fence-agents' {@code snmp_auth_prot} offers MD5 and SHA only. The
 * password is the user's authentication passphrase, so a wrong one is an authentication failure, not a silence.
 */
class FenceApcSnmpConformanceIT extends LoopbackConformanceKit {

    private static final SnmpUser USER = SnmpdProcess.SHA_AES;

    @TempDir
    static Path work;

    private static SnmpdProcess snmpd;
    private static ClusterLabsFenceAgentProvider provider;

    @BeforeAll
    static void start() {
        PeerPrograms.require("fence_apc_snmp", "fence-agents");
        snmpd = SnmpdProcess.start(work, SnmpDeviceSpec.of("apc-pdu", SnmpDeviceKind.APC_RACK_PDU, 8));
        provider = new ClusterLabsFenceAgentProvider(Path.of(ClusterLabsFenceAgentProvider.DEFAULT_DIRECTORY))
                .specialise(Map.of("agent", "fence_apc_snmp"));
    }

    @AfterAll
    static void stop() {
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return provider;
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return provider.configure().set("agent", "fence_apc_snmp").set("ip", snmpd.host())
                .set("ipport", Integer.toString(port)).set("plug", "1").set("snmp_version", "3")
                .set("username", USER.name()).set("snmp_sec_level", USER.securityLevel())
                .set("snmp_auth_prot", "SHA").set("snmp_priv_prot", "AES")
                .secret("password", Secret.of(password))
                .secret("snmp_priv_passwd", Secret.of(USER.privPassphrase())).build();
    }

    @Override
    protected int port() {
        return snmpd.port();
    }

    @Override
    protected String password() {
        return USER.authPassphrase();
    }

    /** The UDP port after snmpd's, where nothing listens: snmpget waits out its timeouts there. */
    @Override
    protected int unreachablePort() {
        return snmpd.port() + 1;
    }

    @Override
    protected PowerTarget target() {
        return snmpd.outlet(1);
    }

    /** fence_apc_snmp runs a Python process and several snmpget/snmpset per action, and waits between them. */
    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(3);
    }
}
