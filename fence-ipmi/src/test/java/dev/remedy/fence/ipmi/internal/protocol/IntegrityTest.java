package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.repeat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Packet integrity")
class IntegrityTest {

    private final Integrity sha1 = new Integrity(CipherSuite.IntegrityAlgorithm.HMAC_SHA1_96, repeat(7, 20));
    private final Integrity sha256 = new Integrity(CipherSuite.IntegrityAlgorithm.HMAC_SHA256_128, repeat(7, 32));

    @Test
    @DisplayName("the pad brings the range through the next header byte to a multiple of 4")
    void padding() {
        for (int length = 12; length < 40; length++) {
            byte[] sealed = sha1.seal(new byte[length]);
            int covered = sealed.length - 12;
            assertThat(covered % 4).isZero();
            assertThat(covered - length - 2).isBetween(0, 3).isEqualTo(Integrity.padLength(length));
            assertThat(sealed[covered - 1]).isEqualTo((byte) 0x07);
            assertThat(sealed[covered - 2]).isEqualTo((byte) Integrity.padLength(length));
            for (int i = length; i < covered - 2; i++) {
                assertThat(sealed[i]).isEqualTo((byte) 0xFF);
            }
        }
    }

    @Test
    @DisplayName("the AuthCode is the HMAC keyed by K1 over the covered range, truncated to 12 or 16 bytes")
    void authCode() {
        byte[] range = repeat(0x42, 14);
        byte[] sealed = sha256.seal(range);
        byte[] covered = Arrays.copyOf(sealed, 16);
        assertThat(Arrays.copyOfRange(sealed, 16, sealed.length))
                .isEqualTo(Arrays.copyOf(Crypto.hmac("HmacSHA256", repeat(7, 32), covered), 16));
        assertThat(sha1.seal(range)).hasSize(16 + 12);
    }

    @Test
    @DisplayName("open returns the protected range after a seal")
    void roundTrip() {
        for (int length = 12; length < 30; length++) {
            byte[] range = repeat(length, length);
            assertThat(sha1.open(sha1.seal(range), 4)).isEqualTo(range);
            assertThat(sha256.open(sha256.seal(range), 4)).isEqualTo(range);
        }
    }

    @Test
    @DisplayName("any flipped byte, a wrong next header or a truncated packet is refused")
    void tampering() {
        byte[] sealed = sha1.seal(repeat(0x42, 13));
        for (int i = 0; i < sealed.length; i++) {
            byte[] copy = sealed.clone();
            copy[i] ^= 0x01;
            assertThatThrownBy(() -> sha1.open(copy, 4)).isInstanceOf(MalformedPacketException.class);
        }
        byte[] wrongNext = sealed.clone();
        wrongNext[sealed.length - 13] = 0x08;
        assertThatThrownBy(() -> sha1.open(wrongNext, 4)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("next header at offset " + (4 + sealed.length - 13));
        assertThatThrownBy(() -> sha1.open(new byte[10], 4)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("too short");
        assertThatThrownBy(() -> sha256.open(sealed, 4)).isInstanceOf(MalformedPacketException.class);
    }

    @Test
    @DisplayName("the NONE algorithm is refused")
    void none() {
        assertThatThrownBy(() -> new Integrity(CipherSuite.IntegrityAlgorithm.NONE, new byte[20]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
