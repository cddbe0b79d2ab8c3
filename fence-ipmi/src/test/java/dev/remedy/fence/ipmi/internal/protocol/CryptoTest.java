package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.bytes;
import static dev.remedy.fence.ipmi.internal.protocol.Hex.hex;
import static dev.remedy.fence.ipmi.internal.protocol.Hex.repeat;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Crypto helpers")
class CryptoTest {

    private static final String LARGE_KEY_DATA = "Test Using Larger Than Block-Size Key - Hash Key First";

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    @DisplayName("HMAC-SHA1 reproduces the RFC 2202 test cases 1, 2, 3 and 6")
    void hmacSha1Rfc2202() {
        assertThat(hex(Crypto.hmac("HmacSHA1", repeat(0x0b, 20), ascii("Hi There"))))
                .isEqualTo("b617318655057264e28bc0b6fb378c8ef146be00");
        assertThat(hex(Crypto.hmac("HmacSHA1", ascii("Jefe"), ascii("what do ya want for nothing?"))))
                .isEqualTo("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
        assertThat(hex(Crypto.hmac("HmacSHA1", repeat(0xaa, 20), repeat(0xdd, 50))))
                .isEqualTo("125d7342b9ac11cd91a39af48aa17b4f63f175d3");
        assertThat(hex(Crypto.hmac("HmacSHA1", repeat(0xaa, 80), ascii(LARGE_KEY_DATA))))
                .isEqualTo("aa4ae5e15272d00e95705637ce8a3b55ed402112");
    }

    @Test
    @DisplayName("HMAC-SHA256 reproduces the RFC 4231 test cases 1, 2, 3 and 6")
    void hmacSha256Rfc4231() {
        assertThat(hex(Crypto.hmac("HmacSHA256", repeat(0x0b, 20), ascii("Hi There"))))
                .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
        assertThat(hex(Crypto.hmac("HmacSHA256", ascii("Jefe"), ascii("what do ya want for nothing?"))))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assertThat(hex(Crypto.hmac("HmacSHA256", repeat(0xaa, 20), repeat(0xdd, 50))))
                .isEqualTo("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
        assertThat(hex(Crypto.hmac("HmacSHA256", repeat(0xaa, 131), ascii(LARGE_KEY_DATA))))
                .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"HmacSHA1", "HmacSHA256"})
    @DisplayName("HMAC over several parts equals HMAC over their concatenation")
    void hmacParts(String algorithm) {
        assertThat(Crypto.hmac(algorithm, ascii("Jefe"), ascii("what do ya "), ascii(""), ascii("want for nothing?")))
                .isEqualTo(Crypto.hmac(algorithm, ascii("Jefe"), ascii("what do ya want for nothing?")));
    }

    private static final byte[] NIST_KEY = bytes("2b7e151628aed2a6abf7158809cf4f3c");
    private static final byte[] NIST_IV = bytes("000102030405060708090a0b0c0d0e0f");
    private static final byte[] NIST_PLAIN = bytes("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710");
    private static final byte[] NIST_CIPHER = bytes("7649abac8119b246cee98e9b12e9197d 5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e22229516 3ff1caa1681fac09120eca307586e1a7");

    @Test
    @DisplayName("AES-CBC-128 encryption reproduces NIST SP 800-38A F.2.1")
    void aesCbcEncryptNist() {
        assertThat(Crypto.aesCbc(true, NIST_KEY, NIST_IV, NIST_PLAIN, 0, NIST_PLAIN.length)).isEqualTo(NIST_CIPHER);
    }

    @Test
    @DisplayName("AES-CBC-128 decryption reproduces NIST SP 800-38A F.2.2")
    void aesCbcDecryptNist() {
        assertThat(Crypto.aesCbc(false, NIST_KEY, NIST_IV, NIST_CIPHER, 0, NIST_CIPHER.length)).isEqualTo(NIST_PLAIN);
    }

    static byte[] nistKey() {
        return NIST_KEY.clone();
    }

    static byte[] nistIv() {
        return NIST_IV.clone();
    }

    static byte[] nistPlain() {
        return NIST_PLAIN.clone();
    }

    static byte[] nistCipher() {
        return NIST_CIPHER.clone();
    }
}
