package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SnmpUserTest {

    @Test
    @DisplayName("client arguments follow net-snmp's flags; toString never shows a passphrase")
    void clientArgumentsAndToString() {
        SnmpUser user = SnmpUser.authPriv("u1", SnmpUser.Auth.SHA_256, "auth-pass-1", SnmpUser.Priv.AES_256,
                "priv-pass-1");
        assertThat(user.clientArguments()).containsExactly("-v3", "-l", "authPriv", "-u", "u1", "-a", "SHA-256", "-A",
                "auth-pass-1", "-x", "AES-256", "-X", "priv-pass-1");
        assertThat(user.toString()).contains("u1", "SHA-256", "AES-256").doesNotContain("auth-pass-1", "priv-pass-1");
        assertThat(SnmpUser.authNoPriv("u2", SnmpUser.Auth.SHA, "auth-pass-2").clientArguments())
                .containsExactly("-v3", "-l", "authNoPriv", "-u", "u2", "-a", "SHA", "-A", "auth-pass-2");
    }

    @Test
    @DisplayName("passphrases net-snmp refuses or snmpd.conf cannot quote are refused, without echoing them")
    void refusesBadPassphrases() {
        assertThatThrownBy(() -> SnmpUser.authNoPriv("u", SnmpUser.Auth.SHA, "short7!"))
                .hasMessageContaining("at least 8").hasMessageNotContaining("short7!");
        assertThatThrownBy(() -> SnmpUser.authPriv("u", SnmpUser.Auth.SHA, "long-enough", SnmpUser.Priv.AES,
                "has\"quote")).hasMessageContaining("privacy").hasMessageNotContaining("has\"quote");
        assertThatThrownBy(() -> SnmpUser.authNoPriv("bad name", SnmpUser.Auth.SHA, "long-enough"))
                .hasMessageContaining("'bad name'");
    }
}
