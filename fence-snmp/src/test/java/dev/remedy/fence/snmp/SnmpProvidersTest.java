package dev.remedy.fence.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnmpProvidersTest {

    @TempDir
    Path dir;

    private static AgentConfig.Builder port(String profile) {
        SnmpFabricAgentProvider fabric = new SnmpFabricAgentProvider();
        return fabric.configure().set("ip", "192.0.2.1").secret("community", Secret.of("fabric-community"))
                .set("profile", profile).set("plug", "Gi1/0/3");
    }

    @Test
    @DisplayName("ServiceLoader finds snmp and snmp-fabric")
    void discovery() {
        FenceAgentRegistry registry = FenceAgentRegistry.load(getClass().getClassLoader());

        assertThat(registry.provider("snmp")).isInstanceOf(SnmpFenceAgentProvider.class);
        assertThat(registry.provider("snmp-fabric")).isInstanceOf(SnmpFabricAgentProvider.class);
    }

    @Test
    @DisplayName("communities and passphrases are secrets, under the ClusterLabs option names")
    void secrets() {
        assertThat(new SnmpFenceAgentProvider().parameters()).filteredOn(ParameterDescriptor::secret)
                .extracting(ParameterDescriptor::name).containsExactlyInAnyOrder("community", "password",
                        "snmp_priv_passwd");
        assertThat(new SnmpFabricAgentProvider().parameters()).extracting(ParameterDescriptor::name)
                .contains("community", "snmp_version", "snmp_sec_level", "snmp_auth_prot", "snmp_priv_prot",
                        "snmp_priv_passwd", "username", "password", "plug").doesNotContain("reboot_method");
    }

    @Test
    @DisplayName("the fabric agent has no REBOOT; the power agent has every action")
    void actions() {
        assertThat(new SnmpFabricAgentProvider().fencingKind()).isEqualTo(FencingKind.FABRIC);
        assertThat(new SnmpFabricAgentProvider().supportedActions()).doesNotContain(FenceAction.REBOOT);
        assertThat(new SnmpFenceAgentProvider().supportedActions()).contains(FenceAction.REBOOT, FenceAction.LIST);
    }

    @Test
    @DisplayName("isolationPersists is the profile's word: if-mib's does not persist, a user's profile may say it does")
    void isolationPersists() throws IOException {
        SnmpFabricAgentProvider fabric = new SnmpFabricAgentProvider();
        Path file = Files.writeString(dir.resolve("saved.yaml"), """
                profiles:
                  - name: saved-admin-status
                    kind: fabric
                    plug: '[1-9][0-9]*'
                    names: '1.3.6.1.2.1.31.1.1.1.1'
                    status: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', on: 1, off: 2}
                    on: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 1}
                    off: {oid: '1.3.6.1.2.1.2.2.1.7.{index}', value: 2}
                    isolationPersists: true
                """);

        assertThat(fabric.isolationPersists(port("if-mib").build())).isFalse();
        assertThat(fabric.isolationPersists(port("saved-admin-status").set("profile_file", file.toString()).build()))
                .isTrue();
        assertThat(new SnmpFenceAgentProvider().isolationPersists(new SnmpFenceAgentProvider().configure()
                .set("profile", "apc").build())).isFalse();
    }

    @Test
    @DisplayName("SnmpProfiles.check reads a user's file and lists its profiles")
    void check() throws IOException {
        Path file = Files.writeString(dir.resolve("mine.yaml"), """
                profiles:
                  - name: apc-spdu-first
                    kind: power
                    choose: [apc-spdu, apc-rpdu2]
                """);

        assertThat(SnmpProfiles.check(file)).containsExactly("apc-spdu-first");
        assertThat(SnmpProfiles.builtIn()).contains("apc", "if-mib");
    }
}
