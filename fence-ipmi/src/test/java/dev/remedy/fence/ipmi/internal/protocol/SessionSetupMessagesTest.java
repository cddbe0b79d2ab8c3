package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The session setup messages against the layouts of IPMI v2.0 §13.17 to §13.23 and §22.13, and against replies
 * captured from OpenIPMI's ipmi_sim 2.0.33 on loopback.
 */
class SessionSetupMessagesTest {

    @Test
    @DisplayName("Get Channel Authentication Capabilities goes out as an IPMI v1.5 packet without a session")
    void capabilitiesRequest() {
        IpmiMessage request = Command.GET_CHANNEL_AUTH_CAPABILITIES.request(1,
                ChannelAuthCapabilities.requestData(Privilege.ADMINISTRATOR));
        assertThat(SessionlessPacket.encode(request))
                .isEqualTo(bytes("0600ff07 00 00000000 00000000 09 20 18 c8 81 04 38 8e 04 b1"));
    }

    @Test
    @DisplayName("ipmi_sim's capabilities reply reads as IPMI v2.0 on channel 1, no BMC key, no anonymous login")
    void capabilitiesReplyOfIpmiSim() {
        byte[] datagram = bytes("0600ff07 00 00000000 00000000 10 811c63 2004 38 00 01 97 04 03 00 00 00 00 05");
        assertThat(SessionlessPacket.matches(datagram, datagram.length)).isTrue();
        IpmiMessage reply = SessionlessPacket.decode(datagram, datagram.length);
        assertThat(Command.GET_CHANNEL_AUTH_CAPABILITIES.answeredBy(reply, 1)).isTrue();
        assertThat(reply.completionCode()).isZero();
        byte[] data = reply.data();
        assertThat(ChannelAuthCapabilities.decode(java.util.Arrays.copyOfRange(data, 1, data.length)))
                .isEqualTo(new ChannelAuthCapabilities(1, true, false, false));
    }

    @Test
    @DisplayName("a BMC without the v2.0 extended capabilities bit is not an RMCP+ BMC")
    void capabilitiesWithoutIpmi20() {
        assertThat(ChannelAuthCapabilities.decode(bytes("01 17 24 01 000000 00")))
                .isEqualTo(new ChannelAuthCapabilities(1, false, true, false));
        assertThatThrownBy(() -> ChannelAuthCapabilities.decode(bytes("01 97")))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("7 are needed");
    }

    @Test
    @DisplayName("a session-less packet with a session id or a short length is refused")
    void sessionlessChecks() {
        assertThatThrownBy(() -> SessionlessPacket.decode(bytes("0600ff07 00 00000000 01000000 09 2018c8"), 17))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("session id");
        assertThatThrownBy(() -> SessionlessPacket.decode(bytes("0600ff07 00 00000000 00000000 20 2018c8 00"), 18))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("message length");
    }

    @Test
    @DisplayName("Open Session proposes one algorithm of each kind: suite 17 is SHA-256 auth, SHA-256 integrity, AES")
    void openSessionRequest() {
        byte[] payload = new OpenSession.Request(1, 4, 0x9e619440, CipherSuite.SUITE_17).encode();
        assertThat(payload).isEqualTo(bytes("01 04 0000 4094619e 00000008 03000000 01000008 04000000"
                + " 02000008 01000000"));
        assertThat(new OpenSession.Request(2, 0, 1, CipherSuite.SUITE_3).encode())
                .isEqualTo(bytes("02 00 0000 01000000 00000008 01000000 01000008 01000000 02000008 01000000"));
    }

    @Test
    @DisplayName("ipmi_sim refuses suite 17 with a two-byte reply that carries no session id")
    void openSessionShortRefusalOfIpmiSim() {
        byte[] datagram = bytes("0600ff07 06 11 00000000 00000000 0200 01 04");
        assertThat(LanplusPacket.isSetupReply(datagram, datagram.length)).isTrue();
        assertThat(LanplusPacket.consoleSessionId(datagram, datagram.length)).isZero();
        OpenSession.Response response = OpenSession.Response.decode(
                LanplusPacket.decode(datagram, datagram.length, null, null).payload());
        assertThat(response.status()).isEqualTo(RmcpPlusStatus.INVALID_AUTHENTICATION_ALGORITHM);
        assertThat(response.consoleSessionId()).isZero();
        assertThat(RmcpPlusStatus.isCipherMismatch(response.status())).isTrue();
        assertThat(RmcpPlusStatus.describe(response.status())).isEqualTo("invalid authentication algorithm (0x04)");
    }

    @Test
    @DisplayName("a successful Open Session Response names both session ids and the accepted algorithms")
    void openSessionResponse() {
        byte[] payload = bytes("07 00 04 00 44332211 88776655 00000008 01000000 01000008 01000000"
                + " 02000008 01000000");
        OpenSession.Response response = OpenSession.Response.decode(payload);
        assertThat(response).isEqualTo(new OpenSession.Response(7, 0, 4, 0x11223344, 0x55667788, 1, 1, 1));
        assertThat(response.suite()).contains(CipherSuite.SUITE_3);
        assertThat(response.describeAlgorithms())
                .isEqualTo("authentication RAKP-HMAC-SHA1, integrity HMAC-SHA1-96, confidentiality AES-CBC-128");
        assertThatThrownBy(() -> OpenSession.Response.decode(bytes("07 00 04 00 44332211")))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("36");
    }

    @Test
    @DisplayName("RAKP 1 carries the BMC session id, Rm, the role byte and the user name")
    void rakp1() {
        byte[] rm = Hex.repeat(0xAB, 16);
        byte[] payload = new Rakp.Message1(9, 0x01020304, rm, 0x14, "admin").encode();
        assertThat(payload).isEqualTo(bytes("09 000000 04030201" + "ab".repeat(16) + "14 0000 05 61646d696e"));
    }

    @Test
    @DisplayName("RAKP 2 yields Rc, the GUID and an auth code of the suite's length; an error reply may be short")
    void rakp2() {
        byte[] payload = bytes("05 00 0000 44332211" + "11".repeat(16) + "22".repeat(16) + "33".repeat(20));
        Rakp.Message2 message = Rakp.Message2.decode(payload, 20);
        assertThat(message.consoleSessionId()).isEqualTo(0x11223344);
        assertThat(message.bmcRandom()).isEqualTo(Hex.repeat(0x11, 16));
        assertThat(message.bmcGuid()).isEqualTo(Hex.repeat(0x22, 16));
        assertThat(message.authCode()).isEqualTo(Hex.repeat(0x33, 20));
        assertThatThrownBy(() -> Rakp.Message2.decode(payload, 32)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("72 are needed");
        Rakp.Message2 refused = Rakp.Message2.decode(bytes("05 0d"), 20);
        assertThat(refused.status()).isEqualTo(RmcpPlusStatus.UNAUTHORIZED_NAME);
        assertThat(refused.consoleSessionId()).isZero();
    }

    @Test
    @DisplayName("RAKP 3 carries a status and the console's auth code; RAKP 4 yields the check value")
    void rakp3And4() {
        assertThat(new Rakp.Message3(6, 0, 0x0A0B0C0D, Hex.repeat(0x5A, 12)).encode())
                .isEqualTo(bytes("06 00 0000 0d0c0b0a" + "5a".repeat(12)));
        assertThat(new Rakp.Message3(6, 0x0F, 0x0A0B0C0D, new byte[0]).encode())
                .isEqualTo(bytes("06 0f 0000 0d0c0b0a"));
        Rakp.Message4 message = Rakp.Message4.decode(bytes("06 00 0000 44332211" + "77".repeat(16)), 16);
        assertThat(message.integrityCheckValue()).isEqualTo(Hex.repeat(0x77, 16));
        assertThat(Rakp.Message4.decode(bytes("06 0f 0000 44332211"), 12).status())
                .isEqualTo(RmcpPlusStatus.INVALID_INTEGRITY_CHECK_VALUE);
    }

    @Test
    @DisplayName("setup replies are routed by the console id in their body, session packets by the header id")
    void routing() {
        byte[] rakp2 = bytes("0600ff07 06 13 00000000 00000000 0800 05 00 0000 44332211");
        assertThat(LanplusPacket.consoleSessionId(rakp2, rakp2.length)).isEqualTo(0x11223344);
        byte[] inSession = LanplusPacket.encode(PayloadType.IPMI_MESSAGE, 0x01020304, 1, new byte[7], null, null);
        assertThat(LanplusPacket.consoleSessionId(inSession, inSession.length)).isEqualTo(0x01020304);
        assertThat(LanplusPacket.isSetupReply(inSession, inSession.length)).isFalse();
        byte[] request = LanplusPacket.encode(PayloadType.OPEN_SESSION_REQUEST, 0, 0, new byte[32], null, null);
        assertThat(LanplusPacket.consoleSessionId(request, request.length)).isZero();
        assertThat(LanplusPacket.consoleSessionId(new byte[3], 3)).isZero();
    }
}
