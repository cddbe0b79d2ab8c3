package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.repeat;
import static dev.remedy.fence.ipmi.internal.protocol.SessionKeysKnownAnswerTest.GUID;
import static dev.remedy.fence.ipmi.internal.protocol.SessionKeysKnownAnswerTest.RC;
import static dev.remedy.fence.ipmi.internal.protocol.SessionKeysKnownAnswerTest.RM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.config.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Session key derivation")
class SessionKeysTest {

    private static final String PASSWORD = "pa55-word";
    private static final RakpExchange EXCHANGE = new RakpExchange(0x11223344, 0x55667788, RM, RC, GUID, 0x14,
            "root");

    private static byte[] key20(String s) {
        return Arrays.copyOf(s.getBytes(StandardCharsets.UTF_8), 20);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static final byte[] ROLE_USER = {0x14, 4, 'r', 'o', 'o', 't'};

    @Test
    @DisplayName("suite 17 derives 32-byte SIK, K1 and K2 with HMAC-SHA256 over 20-byte constants, and a 16-byte RAKP 4 value")
    void suite17() {
        SessionKeys keys = SessionKeys.derive(CipherSuite.SUITE_17, Secret.of(PASSWORD), (Secret) null, EXCHANGE);
        byte[] sik = Crypto.hmac("HmacSHA256", key20(PASSWORD), concat(RM, RC, ROLE_USER));
        assertThat(keys.sik()).isEqualTo(sik);
        assertThat(keys.k1()).isEqualTo(Crypto.hmac("HmacSHA256", sik, repeat(1, 20)));
        assertThat(keys.k2()).isEqualTo(Crypto.hmac("HmacSHA256", sik, repeat(2, 20)));
        assertThat(keys.aesKey()).isEqualTo(Arrays.copyOf(keys.k2(), 16));
        assertThat(keys.rakp4IntegrityCheckValue(EXCHANGE)).isEqualTo(Arrays.copyOf(
                Crypto.hmac("HmacSHA256", sik, concat(RM, new byte[] {(byte) 0x88, 0x77, 0x66, 0x55}, GUID)), 16));
        assertThat(keys.integrity().authCodeLength()).isEqualTo(16);
    }

    @Test
    @DisplayName("suite 17 RAKP 2 and 3 codes are full 32-byte HMAC-SHA256 values over the spec's fields")
    void suite17AuthCodes() {
        byte[] sidm = {0x44, 0x33, 0x22, 0x11};
        byte[] sidc = {(byte) 0x88, 0x77, 0x66, 0x55};
        assertThat(SessionKeys.rakp2AuthCode(CipherSuite.SUITE_17, Secret.of(PASSWORD), EXCHANGE)).isEqualTo(
                Crypto.hmac("HmacSHA256", key20(PASSWORD), concat(sidm, sidc, RM, RC, GUID, ROLE_USER)));
        assertThat(SessionKeys.rakp3AuthCode(CipherSuite.SUITE_17, Secret.of(PASSWORD), EXCHANGE)).isEqualTo(
                Crypto.hmac("HmacSHA256", key20(PASSWORD), concat(RC, sidm, ROLE_USER)));
    }

    @Test
    @DisplayName("a BMC key (KG) replaces the password as the SIK key, but RAKP codes still use the password")
    void bmcKey() {
        Secret kg = Secret.of("bmc-key-0123");
        SessionKeys withKg = SessionKeys.derive(CipherSuite.SUITE_3, Secret.of(PASSWORD), kg, EXCHANGE);
        SessionKeys without = SessionKeys.derive(CipherSuite.SUITE_3, Secret.of(PASSWORD), (Secret) null, EXCHANGE);
        assertThat(withKg.sik()).isEqualTo(Crypto.hmac("HmacSHA1", key20("bmc-key-0123"), concat(RM, RC, ROLE_USER)))
                .isNotEqualTo(without.sik());
        assertThat(SessionKeys.derive(CipherSuite.SUITE_3, Secret.of(PASSWORD), Secret.of(""), EXCHANGE).sik())
                .isEqualTo(without.sik());
    }

    @Test
    @DisplayName("a password over 20 bytes is refused without showing it")
    void longPassword() {
        String longOne = "correct-horse-battery-staple";
        assertThatThrownBy(() -> SessionKeys.derive(CipherSuite.SUITE_3, Secret.of(longOne), (Secret) null, EXCHANGE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 20 bytes")
                .hasMessageNotContaining(longOne);
    }

    @Test
    @DisplayName("suite 0 has no keys and is refused")
    void suite0() {
        assertThatThrownBy(() -> SessionKeys.derive(CipherSuite.SUITE_0, Secret.of(PASSWORD), (Secret) null, EXCHANGE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cipher suite 0");
    }

    @Test
    @DisplayName("toString shows no key material, and destroy clears the keys")
    void secrecy() {
        SessionKeys keys = SessionKeys.derive(CipherSuite.SUITE_3, Secret.of(PASSWORD), (Secret) null, EXCHANGE);
        String hexSik = Hex.hex(keys.sik());
        assertThat(keys.toString()).isEqualTo("SessionKeys[suite=3, ******]").doesNotContain(hexSik);
        assertThat(keys.integrity().toString()).doesNotContain(Hex.hex(keys.k1()));
        keys.destroy();
        assertThat(keys.toString()).contains("destroyed");
        assertThatThrownBy(keys::sik).isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("the exchange refuses wrong random lengths, non-ASCII or long user names, and copies its arrays")
    void exchangeValidation() {
        assertThatThrownBy(() -> new RakpExchange(1, 2, new byte[15], RC, GUID, 4, "u"))
                .hasMessageContaining("Rm").hasMessageContaining("16 bytes");
        assertThatThrownBy(() -> new RakpExchange(1, 2, RM, RC, GUID, 4, "seventeen-chars-x"))
                .hasMessageContaining("at most 16");
        assertThatThrownBy(() -> new RakpExchange(1, 2, RM, RC, GUID, 256, "u")).hasMessageContaining("one byte");
        byte[] rm = RM.clone();
        RakpExchange exchange = new RakpExchange(1, 2, rm, RC, GUID, 4, "u");
        rm[0] ^= 1;
        exchange.consoleRandom()[1] ^= 1;
        assertThat(exchange.consoleRandom()).isEqualTo(RM);
    }
}
