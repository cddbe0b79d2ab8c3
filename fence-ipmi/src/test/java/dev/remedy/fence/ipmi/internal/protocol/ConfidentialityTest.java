package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.repeat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("AES-CBC-128 payload confidentiality")
class ConfidentialityTest {

    private final Confidentiality aes = new Confidentiality(CryptoTest.nistKey(), new SecureRandom());

    @Test
    @DisplayName("with the NIST IV injected, the NIST plaintext encrypts to IV, the F.2.1 ciphertext and a pad block")
    void nist() {
        Confidentiality fixed = new Confidentiality(CryptoTest.nistKey(), Hex.fixed(CryptoTest.nistIv()));
        byte[] out = fixed.encrypt(CryptoTest.nistPlain());
        assertThat(out).hasSize(16 + 64 + 16);
        assertThat(Arrays.copyOf(out, 16)).isEqualTo(CryptoTest.nistIv());
        assertThat(Arrays.copyOfRange(out, 16, 80)).isEqualTo(CryptoTest.nistCipher());
        byte[] lastBlock = Crypto.aesCbc(false, CryptoTest.nistKey(), Arrays.copyOfRange(out, 64, 80), out, 80, 16);
        assertThat(lastBlock).isEqualTo(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15});
    }

    @Test
    @DisplayName("the trailer is 0x01, 0x02, ... then the pad length, filling the last block")
    void trailer() {
        Confidentiality fixed = new Confidentiality(CryptoTest.nistKey(), Hex.fixed(new byte[16]));
        byte[] out = fixed.encrypt(new byte[] {9, 9, 9});
        byte[] plain = Crypto.aesCbc(false, CryptoTest.nistKey(), new byte[16], out, 16, 16);
        assertThat(plain).isEqualTo(new byte[] {9, 9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12});
        assertThat(Confidentiality.padLength(15)).isZero();
        assertThat(Confidentiality.padLength(16)).isEqualTo(15);
    }

    @Test
    @DisplayName("decrypt returns the payload for every length from 0 to 40, each with a fresh IV")
    void roundTrip() {
        for (int length = 0; length <= 40; length++) {
            byte[] payload = repeat(length, length);
            byte[] first = aes.encrypt(payload);
            assertThat(first.length % 16).isZero();
            assertThat(aes.decrypt(first, 16)).isEqualTo(payload);
            assertThat(Arrays.copyOf(aes.encrypt(payload), 16)).isNotEqualTo(Arrays.copyOf(first, 16));
        }
    }

    @Test
    @DisplayName("a short, unaligned or wrongly padded payload is refused with its offset")
    void refused() {
        assertThatThrownBy(() -> aes.decrypt(new byte[16], 16)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("encrypted payload at offset 16");
        assertThatThrownBy(() -> aes.decrypt(new byte[33], 16)).isInstanceOf(MalformedPacketException.class);
        byte[] iv = new byte[16];
        byte[] badPad = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 9, 3};
        byte[] cipher = Crypto.aesCbc(true, CryptoTest.nistKey(), iv, badPad, 0, 16);
        byte[] packet = new byte[32];
        System.arraycopy(cipher, 0, packet, 16, 16);
        assertThatThrownBy(() -> aes.decrypt(packet, 16)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("confidentiality pad at offset 44");
        byte[] tooLong = Crypto.aesCbc(true, CryptoTest.nistKey(), iv, repeat(16, 16), 0, 16);
        System.arraycopy(tooLong, 0, packet, 16, 16);
        assertThatThrownBy(() -> aes.decrypt(packet, 16)).hasMessageContaining("exceeds 15");
    }

    @Test
    @DisplayName("a key that is not 16 bytes is refused")
    void keyLength() {
        assertThatThrownBy(() -> new Confidentiality(new byte[20], new SecureRandom()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
    }
}
