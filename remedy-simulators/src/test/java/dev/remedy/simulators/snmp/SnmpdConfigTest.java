package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SnmpdConfigTest {

    @Test
    @DisplayName("snmpd.conf listens on loopback only, names the kind's sysObjectID, and hands every MIB subtree to pass_persist")
    void rendersTheDevice() {
        String conf = SnmpdConfig.render(16161, SnmpDeviceSpec.of("sw-1", SnmpDeviceKind.IF_MIB_SWITCH, 4), "community-1",
                List.of(SnmpdProcess.SHA256_AES, SnmpdProcess.SHA256_AUTH_ONLY), "/usr/bin/java @/w/args");
        assertThat(conf.lines()).contains("agentAddress udp:127.0.0.1:16161", "sysObjectID .1.3.6.1.4.1.8072.3.2.10",
                "sysName sw-1", "rwcommunity community-1 127.0.0.1",
                "createUser remedy-sha256-aes SHA-256 \"remedy-auth-sha256\" AES \"remedy-priv-aes128\"",
                "rwuser remedy-sha256-aes priv",
                "createUser remedy-auth-only SHA-256 \"remedy-auth-only-sha256\"", "rwuser remedy-auth-only auth",
                "pass_persist .1.3.6.1.2.1.2 /usr/bin/java @/w/args",
                "pass_persist .1.3.6.1.2.1.31.1.1 /usr/bin/java @/w/args");
        assertThat(conf.lines().filter(line -> line.startsWith("agentAddress"))).hasSize(1);
        assertThat(SnmpdConfig.excludedModules(SnmpDeviceKind.IF_MIB_SWITCH)).contains("ifTable", "ifXTable");
        assertThat(SnmpdConfig.excludedModules(SnmpDeviceKind.APC_RACK_PDU)).isEmpty();
    }

    @Test
    @DisplayName("the pass_persist argument file quotes every argument, so a class path with spaces survives")
    void argumentFileQuotes() {
        String arguments = SnmpdConfig.javaArguments("/a b/x.jar:/c\"d/y.jar", Path.of("/w/device.state"),
                Path.of("/w/pass-persist.log"));
        assertThat(arguments.lines()).startsWith("\"-cp\"", "\"/a b/x.jar:/c\\\"d/y.jar\"")
                .endsWith("\"" + SnmpPassPersist.class.getName() + "\"", "\"/w/device.state\"", "\"/w/pass-persist.log\"");
    }
}
