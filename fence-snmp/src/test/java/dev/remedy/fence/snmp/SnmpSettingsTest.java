package dev.remedy.fence.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.snmp.internal.session.AuthProtocol;
import dev.remedy.fence.snmp.internal.session.Credentials;
import dev.remedy.fence.snmp.internal.session.PrivProtocol;
import dev.remedy.fence.snmp.internal.session.SecurityLevel;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnmpSettingsTest {

    private static final String COMMUNITY = "pdu-write-community";

    @TempDir
    Path dir;

    private static AgentConfig.Builder pdu() {
        return new SnmpFenceAgentProvider().configure().set("ip", "pdu1").secret("community", Secret.of(COMMUNITY))
                .set("profile", "apc").set("plug", "3");
    }

    private static AgentConfig.Builder v3() {
        return new SnmpFenceAgentProvider().configure().set("ip", "pdu1").set("snmp_version", "3")
                .set("username", "fence").set("snmp_auth_prot", "SHA-256").secret("password", Secret.of("auth-pass-1"))
                .set("snmp_priv_prot", "AES-256").secret("snmp_priv_passwd", Secret.of("priv-pass-1"))
                .set("profile", "apc-rpdu2").set("plug", "3");
    }

    private static List<ConfigProblem> problems(AgentConfig config, FencingKind kind) {
        try {
            SnmpSettings.of(config, kind);
        } catch (InvalidConfigurationException e) {
            assertThat(e.getMessage()).doesNotContain(COMMUNITY, "auth-pass-1", "priv-pass-1");
            return e.problems();
        }
        throw new AssertionError("accepted: " + config);
    }

    @Test
    @DisplayName("v2c by default: the community, UDP 161, plugs split at commas, and the device described without it")
    void v2c() {
        SnmpSettings settings = SnmpSettings.of(pdu().set("plug", "3, 4").build(), FencingKind.POWER);

        assertThat(settings.plugs()).containsExactly("3", "4");
        assertThat(settings.endpoint().port()).isEqualTo(161);
        assertThat(settings.endpoint().credentials()).isInstanceOf(Credentials.Community.class);
        assertThat(settings.device()).isEqualTo("profile apc at udp:pdu1/161 (SNMP v2c)");
        assertThat(settings.deviceReboot()).isFalse();
        assertThat(settings.retries()).isEqualTo(2);
    }

    @Test
    @DisplayName("v3 authPriv with SHA-256 and AES-256, under the ClusterLabs option names")
    void v3AuthPriv() {
        SnmpSettings settings = SnmpSettings.of(v3().build(), FencingKind.POWER);

        assertThat(settings.endpoint().credentials()).isInstanceOfSatisfying(Credentials.User.class, user -> {
            assertThat(user.name()).isEqualTo("fence");
            assertThat(user.level()).isEqualTo(SecurityLevel.AUTH_PRIV);
            assertThat(user.auth()).hasValue(AuthProtocol.SHA_256);
            assertThat(user.priv()).hasValue(PrivProtocol.AES_256);
        });
        assertThat(settings.endpoint().describe()).isEqualTo("udp:pdu1/161 (SNMP v3 user fence, authPriv)");
    }

    @Test
    @DisplayName("v3 authNoPriv with SHA-1 needs no privacy settings, and refuses them")
    void v3AuthNoPriv() {
        AgentConfig.Builder authOnly = new SnmpFenceAgentProvider().configure().set("ip", "pdu1")
                .set("snmp_version", "3").set("snmp_sec_level", "authNoPriv").set("username", "fence")
                .set("snmp_auth_prot", "SHA").secret("password", Secret.of("auth-pass-1")).set("profile", "apc")
                .set("plug", "1");

        assertThat(SnmpSettings.of(authOnly.build(), FencingKind.POWER).endpoint().credentials())
                .isInstanceOfSatisfying(Credentials.User.class, u -> assertThat(u.priv()).isEmpty());
        assertThat(problems(authOnly.set("snmp_priv_prot", "AES").build(), FencingKind.POWER))
                .singleElement().satisfies(p -> {
                    assertThat(p.path()).isEqualTo("snmp_priv_prot");
                    assertThat(p.problem()).contains("snmp_sec_level authNoPriv does not use it");
                });
    }

    @Test
    @DisplayName("credentials of the other version are refused, each at its parameter")
    void versionsDoNotMix() {
        assertThat(problems(pdu().set("username", "fence").build(), FencingKind.POWER))
                .extracting(ConfigProblem::path).containsExactly("username");
        assertThat(problems(v3().secret("community", Secret.of(COMMUNITY)).build(), FencingKind.POWER))
                .extracting(ConfigProblem::path).containsExactly("community");
        assertThat(problems(new SnmpFenceAgentProvider().configure().set("ip", "pdu1").set("profile", "apc")
                .set("plug", "1").build(), FencingKind.POWER)).singleElement().satisfies(p -> {
                    assertThat(p.path()).isEqualTo("community");
                    assertThat(p.hint()).contains("write community");
                });
    }

    @Test
    @DisplayName("authPriv without its protocols and passphrases, or with short ones, names each missing piece")
    void v3Incomplete() {
        AgentConfig bare = new SnmpFenceAgentProvider().configure().set("ip", "pdu1").set("snmp_version", "3")
                .secret("password", Secret.of("short")).set("profile", "apc").set("plug", "1").build();

        List<ConfigProblem> problems = problems(bare, FencingKind.POWER);

        assertThat(problems).extracting(ConfigProblem::path).containsExactlyInAnyOrder("username", "snmp_auth_prot",
                "snmp_priv_prot", "snmp_priv_passwd", "password");
        assertThat(problems).filteredOn(p -> p.path().equals("password")).singleElement()
                .satisfies(p -> assertThat(p.problem()).contains("shorter than 8 characters"));
    }

    @Test
    @DisplayName("MD5 and DES are not offered")
    void weakProtocols() {
        assertThat(new SnmpFenceAgentProvider().configure().set("ip", "pdu1").set("snmp_version", "3")
                .set("snmp_auth_prot", "MD5").set("snmp_priv_prot", "DES").build().validate())
                .extracting(ConfigProblem::path).contains("snmp_auth_prot", "snmp_priv_prot");
    }

    @Test
    @DisplayName("a plug not of the profile's form is refused before anything is sent; names need a name column")
    void plugForms() {
        assertThat(problems(pdu().set("plug", "0").build(), FencingKind.POWER)).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("plug");
            assertThat(p.problem()).isEqualTo("'0' is not a plug of profile apc-rpdu2");
            assertThat(p.hint()).contains("[1-9][0-9]{0,2}", "or its name");
        });
        assertThat(problems(pdu().set("plug", "3,,4").build(), FencingKind.POWER)).extracting(ConfigProblem::problem)
                .containsExactly("'3,,4' has an empty plug");
        assertThat(problems(pdu().set("plug", "3,3").build(), FencingKind.POWER)).extracting(ConfigProblem::problem)
                .containsExactly("'3,3' names a plug twice");
        assertThat(SnmpSettings.of(pdu().set("plug", "web-01 psu A").build(), FencingKind.POWER).plugs())
                .containsExactly("web-01 psu A");
        assertThat(problems(pdu().set("plug", "web-01\tA").build(), FencingKind.POWER)).singleElement()
                .satisfies(p -> assertThat(p.problem()).contains("web-01\\u0009A"));
    }

    @Test
    @DisplayName("a profile of the other kind, or an unknown one, is refused with what to use instead")
    void profiles() {
        assertThat(problems(pdu().set("profile", "if-mib").build(), FencingKind.POWER)).singleElement()
                .satisfies(p -> {
                    assertThat(p.problem()).isEqualTo("'if-mib' is fabric (switch port), not power (outlet)");
                    assertThat(p.hint()).isEqualTo("use the agent type snmp-fabric for it");
                });
        assertThat(problems(pdu().set("profile", "apc-rpdu").build(), FencingKind.POWER)).singleElement()
                .satisfies(p -> assertThat(p.hint()).startsWith("did you mean 'apc-rpdu2'?"));
    }

    @Test
    @DisplayName("reboot_method=device needs a profile with the device's own reboot (Raritan's has none)")
    void deviceReboot() {
        assertThat(SnmpSettings.of(pdu().set("reboot_method", "device").build(), FencingKind.POWER).deviceReboot())
                .isTrue();
        assertThat(problems(pdu().set("profile", "raritan-px2").set("reboot_method", "device").build(),
                FencingKind.POWER)).extracting(ConfigProblem::path).containsExactly("reboot_method");
    }

    @Test
    @DisplayName("a profile_file with problems is refused with each problem, at profile_file")
    void badProfileFile() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "profiles:\n  - name: x\n    kind: power\n");

        assertThat(problems(pdu().set("profile", "x").set("profile_file", file.toString()).build(), FencingKind.POWER))
                .isNotEmpty().allSatisfy(p -> {
                    assertThat(p.path()).isEqualTo("profile_file");
                    assertThat(p.problem()).contains(file.toString());
                });
    }

    @Test
    @DisplayName("timeouts and retries are bounded")
    void bounds() {
        assertThat(problems(pdu().set("snmp_retries", "11").set("snmp_timeout", "0s").set("ipport", "0").build(),
                FencingKind.POWER)).extracting(ConfigProblem::path).containsExactlyInAnyOrder("snmp_retries",
                "snmp_timeout", "ipport");
    }
}
