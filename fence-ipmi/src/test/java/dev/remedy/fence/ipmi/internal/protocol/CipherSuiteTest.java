package dev.remedy.fence.ipmi.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Cipher suites")
class CipherSuiteTest {

    @Test
    @DisplayName("suite 3 is RAKP-HMAC-SHA1, HMAC-SHA1-96 and AES-CBC-128")
    void suite3() {
        CipherSuite suite = CipherSuite.of(3);
        assertThat(suite).isEqualTo(CipherSuite.SUITE_3);
        assertThat(suite.authentication().code()).isEqualTo(0x01);
        assertThat(suite.authentication().icvLength()).isEqualTo(12);
        assertThat(suite.integrity().code()).isEqualTo(0x01);
        assertThat(suite.integrity().authCodeLength()).isEqualTo(12);
        assertThat(suite.confidentiality().code()).isEqualTo(0x01);
        assertThat(suite.insecure()).isFalse();
    }

    @Test
    @DisplayName("suite 17 is RAKP-HMAC-SHA256, HMAC-SHA256-128 and AES-CBC-128")
    void suite17() {
        CipherSuite suite = CipherSuite.of(17);
        assertThat(suite.authentication().code()).isEqualTo(0x03);
        assertThat(suite.authentication().macLength()).isEqualTo(32);
        assertThat(suite.authentication().icvLength()).isEqualTo(16);
        assertThat(suite.integrity().code()).isEqualTo(0x04);
        assertThat(suite.integrity().authCodeLength()).isEqualTo(16);
        assertThat(suite.confidentiality()).isEqualTo(CipherSuite.ConfidentialityAlgorithm.AES_CBC_128);
        assertThat(suite.insecure()).isFalse();
    }

    @Test
    @DisplayName("suite 0 is recognised and flagged insecure")
    void suite0() {
        assertThat(CipherSuite.of(0).insecure()).isTrue();
        assertThat(CipherSuite.of(0).integrity()).isEqualTo(CipherSuite.IntegrityAlgorithm.NONE);
    }

    @Test
    @DisplayName("an unimplemented suite id is refused with the supported ones named")
    void unknown() {
        assertThatThrownBy(() -> CipherSuite.of(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cipher suite 1").hasMessageContaining("3 or 17");
    }
}
