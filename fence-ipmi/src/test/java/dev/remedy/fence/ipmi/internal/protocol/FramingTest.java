package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.bytes;
import static dev.remedy.fence.ipmi.internal.protocol.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RMCP, session header and IPMI message framing")
class FramingTest {

    private static final byte[] K1 = Hex.repeat(0x11, 20);
    private static final byte[] AES = Hex.repeat(0x22, 16);

    @Test
    @DisplayName("checksums are two's complement: Get Device ID gives 0xc8 and 0x7a")
    void checksums() {
        byte[] getDeviceId = IpmiMessage.request(0x06, 0x01, 1, new byte[0]).encode();
        assertThat(hex(getDeviceId)).isEqualTo("2018c88104017a");
        assertThat(IpmiMessage.checksum(new byte[] {0x20, 0x18}, 0, 2)).isEqualTo(0xc8);
        assertThat(IpmiMessage.checksum(new byte[] {(byte) 0x81, 0x04, 0x01}, 0, 3)).isEqualTo(0x7a);
        assertThat(IpmiMessage.checksum(new byte[0], 0, 0)).isZero();
        assertThat(IpmiMessage.checksum(new byte[] {(byte) 0x80, (byte) 0x80}, 0, 2)).isZero();
    }

    @Test
    @DisplayName("an IPMI message survives encode then decode, LUNs and data included")
    void messageRoundTrip() {
        IpmiMessage message = new IpmiMessage(0x81, 0x01, 2, 0x20, 63, 1, 0x01, new byte[] {0, 0x21, (byte) 0xff});
        byte[] wire = message.encode();
        assertThat(IpmiMessage.decode(wire, 0, wire.length)).isEqualTo(message);
        assertThat(message.isResponse()).isTrue();
        assertThat(message.completionCode()).isZero();
        assertThatThrownBy(IpmiMessage.request(0x00, 0x02, 0, new byte[] {1})::completionCode)
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("an IPMI message with a bad checksum or under 7 bytes is refused with field and offset")
    void messageRefused() {
        byte[] wire = IpmiMessage.request(0x00, 0x02, 3, new byte[] {0x00}).encode();
        byte[] badFirst = wire.clone();
        badFirst[1] ^= 0x04;
        assertThatThrownBy(() -> IpmiMessage.decode(badFirst, 0, badFirst.length))
                .isInstanceOf(MalformedPacketException.class).hasMessageStartingWith("IPMI checksum 1 at offset 2");
        byte[] badSecond = wire.clone();
        badSecond[6] ^= 0x01;
        assertThatThrownBy(() -> IpmiMessage.decode(badSecond, 0, badSecond.length))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessageStartingWith("IPMI checksum 2 at offset " + (wire.length - 1));
        assertThatThrownBy(() -> IpmiMessage.decode(wire, 0, 6)).isInstanceOf(MalformedPacketException.class)
                .hasMessageStartingWith("IPMI message at offset 0");
        assertThatThrownBy(() -> IpmiMessage.request(0x40, 1, 0, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("netFn");
    }

    @Test
    @DisplayName("the session header is 12 bytes with RMCP+ auth type, flag bits and little-endian fields")
    void sessionHeader() {
        SessionHeader header = new SessionHeader(PayloadType.RAKP_3, true, true, 0x01020304, 0xfffffffe, 0x1234);
        byte[] out = new byte[12];
        header.write(out, 0);
        assertThat(hex(out)).isEqualTo("06d404030201feffffff3412");
        assertThat(SessionHeader.read(out, 0, 12)).isEqualTo(header);
    }

    @Test
    @DisplayName("payload type codes are 0x00 and 0x10 to 0x15, and others are refused")
    void payloadTypes() {
        assertThat(PayloadType.of(0x00)).isEqualTo(PayloadType.IPMI_MESSAGE);
        assertThat(PayloadType.of(0x10)).isEqualTo(PayloadType.OPEN_SESSION_REQUEST);
        assertThat(PayloadType.of(0x11)).isEqualTo(PayloadType.OPEN_SESSION_RESPONSE);
        assertThat(PayloadType.of(0x12)).isEqualTo(PayloadType.RAKP_1);
        assertThat(PayloadType.of(0x15)).isEqualTo(PayloadType.RAKP_4);
        assertThatThrownBy(() -> PayloadType.of(0x02)).hasMessageContaining("0x02");
    }

    @Test
    @DisplayName("a cleartext open session request encodes as RMCP, session header and payload, and decodes back")
    void clearRoundTrip() {
        byte[] payload = bytes("00040000a4a3a2a0000000080100000001000008010000000200000801000000");
        byte[] datagram = LanplusPacket.encode(PayloadType.OPEN_SESSION_REQUEST, 0, 0, payload, null, null);
        assertThat(hex(Arrays.copyOf(datagram, 16))).isEqualTo("0600ff07" + "0610" + "00000000" + "00000000" + "2000");
        LanplusPacket packet = LanplusPacket.decode(datagram, datagram.length, null, null);
        assertThat(packet.header().payloadType()).isEqualTo(PayloadType.OPEN_SESSION_REQUEST);
        assertThat(packet.header().encrypted()).isFalse();
        assertThat(packet.payload()).isEqualTo(payload);
    }

    @Test
    @DisplayName("an encrypted, authenticated IPMI request decodes back to the same message")
    void protectedRoundTrip() {
        Integrity integrity = new Integrity(CipherSuite.IntegrityAlgorithm.HMAC_SHA1_96, K1);
        Confidentiality confidentiality = new Confidentiality(AES, new SecureRandom());
        IpmiMessage request = IpmiMessage.request(0x00, 0x02, 5, new byte[] {0x00});
        byte[] datagram = LanplusPacket.encode(PayloadType.IPMI_MESSAGE, 0x02, 7, request.encode(), confidentiality,
                integrity);
        assertThat((datagram.length - 4 - 12) % 4).as("covered range is whole words").isZero();
        LanplusPacket packet = LanplusPacket.decode(datagram, datagram.length, confidentiality, integrity);
        assertThat(packet.header()).isEqualTo(new SessionHeader(PayloadType.IPMI_MESSAGE, true, true, 2, 7, 32));
        assertThat(packet.ipmiMessage()).isEqualTo(request);
        assertThat(LanplusPacket.decode(Arrays.copyOf(datagram, datagram.length + 5), datagram.length,
                confidentiality, integrity).payload()).isEqualTo(request.encode());
    }

    @Test
    @DisplayName("every truncation of a protected datagram is refused")
    void truncated() {
        Integrity integrity = new Integrity(CipherSuite.IntegrityAlgorithm.HMAC_SHA256_128, Hex.repeat(3, 32));
        Confidentiality confidentiality = new Confidentiality(AES, new SecureRandom());
        byte[] datagram = LanplusPacket.encode(PayloadType.IPMI_MESSAGE, 9, 1,
                IpmiMessage.request(0x06, 0x01, 0, new byte[0]).encode(), confidentiality, integrity);
        for (int length = 0; length < datagram.length; length++) {
            int cut = length;
            assertThatThrownBy(() -> LanplusPacket.decode(datagram, cut, confidentiality, integrity))
                    .isInstanceOf(MalformedPacketException.class);
        }
        assertThatThrownBy(() -> LanplusPacket.decode(datagram, 3, confidentiality, integrity))
                .hasMessageStartingWith("RMCP header at offset 0");
        assertThatThrownBy(() -> LanplusPacket.decode(datagram, 10, confidentiality, integrity))
                .hasMessageStartingWith("session header at offset 4");
        assertThatThrownBy(() -> LanplusPacket.decode(datagram, 30, confidentiality, integrity))
                .hasMessageStartingWith("payload length at offset 14");
    }

    @Test
    @DisplayName("wrong RMCP bytes, auth type or payload type are refused with field and offset")
    void corrupt() {
        byte[] good = LanplusPacket.encode(PayloadType.RAKP_1, 0, 0, new byte[4], null, null);
        assertThat(LanplusPacket.decode(good, good.length, null, null).header().payloadType())
                .isEqualTo(PayloadType.RAKP_1);
        assertRefused(good, 0, 0x07, "RMCP version at offset 0");
        assertRefused(good, 3, 0x06, "RMCP class at offset 3");
        assertRefused(good, 4, 0x00, "auth type at offset 4");
        assertRefused(good, 5, 0x02, "payload type at offset 5");
        assertRefused(good, 14, 0x05, "payload length at offset 14");
    }

    private static void assertRefused(byte[] good, int offset, int value, String message) {
        byte[] bad = good.clone();
        bad[offset] = (byte) value;
        assertThatThrownBy(() -> LanplusPacket.decode(bad, bad.length, null, null))
                .isInstanceOf(MalformedPacketException.class).hasMessageStartingWith(message);
    }

    @Test
    @DisplayName("once a session has keys, cleartext or unauthenticated packets are refused")
    void downgrade() {
        Integrity integrity = new Integrity(CipherSuite.IntegrityAlgorithm.HMAC_SHA1_96, K1);
        Confidentiality confidentiality = new Confidentiality(AES, new SecureRandom());
        byte[] clear = LanplusPacket.encode(PayloadType.IPMI_MESSAGE, 2, 1,
                IpmiMessage.request(0x00, 0x01, 0, new byte[0]).encode(), null, null);
        assertThatThrownBy(() -> LanplusPacket.decode(clear, clear.length, confidentiality, integrity))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("requires authenticated");
        byte[] authenticatedOnly = LanplusPacket.encode(PayloadType.IPMI_MESSAGE, 2, 1,
                IpmiMessage.request(0x00, 0x01, 0, new byte[0]).encode(), null, integrity);
        assertThatThrownBy(() -> LanplusPacket.decode(authenticatedOnly, authenticatedOnly.length, confidentiality,
                integrity)).hasMessageContaining("requires encrypted");
        byte[] other = LanplusPacket.encode(PayloadType.IPMI_MESSAGE, 2, 1, new byte[7], confidentiality,
                new Integrity(CipherSuite.IntegrityAlgorithm.HMAC_SHA1_96, Hex.repeat(0x12, 20)));
        assertThatThrownBy(() -> LanplusPacket.decode(other, other.length, confidentiality, integrity))
                .hasMessageContaining("integrity check failed");
    }
}
