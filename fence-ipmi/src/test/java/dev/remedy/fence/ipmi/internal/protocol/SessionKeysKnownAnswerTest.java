package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.bytes;
import static dev.remedy.fence.ipmi.internal.protocol.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.config.Secret;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Known answers captured from a real session: {@code ipmitool 1.8.19 -I lanplus -C 3 -H 127.0.0.1 -U admin
 * -P secret -vvvv chassis power status} against OpenIPMI {@code ipmi_sim} 2.0.33 (Debian 12 packages), user
 * "admin" with password "secret", BMC GUID a123456789abcdefa123456789abcdef. The values are copied from
 * ipmitool's debug output (random numbers, session ids, RAKP codes, SIK, K1, K2, and the first encrypted and
 * authenticated request and response of the session).
 */
@DisplayName("Session keys against a captured ipmitool / ipmi_sim session (cipher suite 3)")
class SessionKeysKnownAnswerTest {

    static final Secret PASSWORD = Secret.of("secret");
    static final int CONSOLE_SESSION_ID = 0xa0a2a3a4;
    static final int BMC_SESSION_ID = 0x00000002;
    static final byte[] RM = bytes("4516b9a1cc61cc76a973d8935325c004");
    static final byte[] RC = bytes("ad43b6b9523f1d0e15000a0ba973dff3");
    static final byte[] GUID = bytes("a123456789abcdefa123456789abcdef");
    /** Administrator (4) with name-only lookup (0x10), as ipmitool sends it. */
    static final int ROLE = 0x14;

    static final String RAKP2_CODE = "8f0b9cef5889bb1a1d3f38f80f0097c6657d880d";
    static final String RAKP3_CODE = "1fae2be1017e611e0baf00b67b4f65291a7aa972";
    static final String SIK = "82a6e740fe9db161674eed975572f906906ba9a9";
    static final String K1 = "eaa0db5f556f9cc50672e770251d61d1ed05d6fa";
    static final String K2 = "f917a2fec65551a1138c1e75f93358f9d0c87beb";
    static final String RAKP4_ICV = "368443b7fa51ce9861e2e410";

    /** Set Session Privilege Level (administrator), session header through next header, then the AuthCode. */
    static final String REQUEST_COVERED = "06c002000000030000002000"
            + "d3ee24aa54535273aa6c5de1f548fc66" + "176d5ac907de6494ce7c8b23584f8608" + "ffff0207";
    static final String REQUEST_AUTH_CODE = "b7df3074a35d599db89bf7cb";
    /** The BMC's response to it. */
    static final String RESPONSE_COVERED = "06c0a4a3a2a0010000002000"
            + "449a9218b98816ae34d6fea6a44f02df" + "33a204e942ab31a88d631b0f48fc1dbe" + "ffff0207";
    static final String RESPONSE_AUTH_CODE = "11e698b0a88a2bd2a9ba909a";

    static RakpExchange exchange() {
        return new RakpExchange(CONSOLE_SESSION_ID, BMC_SESSION_ID, RM, RC, GUID, ROLE, "admin");
    }

    static SessionKeys keys() {
        return SessionKeys.derive(CipherSuite.SUITE_3, PASSWORD, (Secret) null, exchange());
    }

    @Test
    @DisplayName("the RAKP 2 code matches the one the BMC sent")
    void rakp2() {
        assertThat(hex(SessionKeys.rakp2AuthCode(CipherSuite.SUITE_3, PASSWORD, exchange()))).isEqualTo(RAKP2_CODE);
        assertThat(SessionKeys.verifyRakp2AuthCode(CipherSuite.SUITE_3, PASSWORD, exchange(), bytes(RAKP2_CODE)))
                .isTrue();
        assertThat(SessionKeys.verifyRakp2AuthCode(CipherSuite.SUITE_3, Secret.of("wrong"), exchange(),
                bytes(RAKP2_CODE))).isFalse();
    }

    @Test
    @DisplayName("the RAKP 3 code matches the one ipmitool sent")
    void rakp3() {
        assertThat(hex(SessionKeys.rakp3AuthCode(CipherSuite.SUITE_3, PASSWORD, exchange()))).isEqualTo(RAKP3_CODE);
    }

    @Test
    @DisplayName("SIK, K1, K2 and the AES key match ipmitool's")
    void sessionKeys() {
        SessionKeys keys = keys();
        assertThat(hex(keys.sik())).isEqualTo(SIK);
        assertThat(hex(keys.k1())).isEqualTo(K1);
        assertThat(hex(keys.k2())).isEqualTo(K2);
        assertThat(hex(keys.aesKey())).isEqualTo(K2.substring(0, 32));
    }

    @Test
    @DisplayName("the RAKP 4 check value matches the 12 bytes the BMC sent")
    void rakp4() {
        SessionKeys keys = keys();
        assertThat(hex(keys.rakp4IntegrityCheckValue(exchange()))).isEqualTo(RAKP4_ICV);
        assertThat(keys.verifyRakp4IntegrityCheckValue(exchange(), bytes(RAKP4_ICV))).isTrue();
    }

    @Test
    @DisplayName("sealing ipmitool's request reproduces its AuthCode")
    void integrityOfRequest() {
        byte[] covered = bytes(REQUEST_COVERED);
        byte[] range = Arrays.copyOf(covered, covered.length - 4);
        assertThat(hex(keys().integrity().seal(range))).isEqualTo(REQUEST_COVERED + REQUEST_AUTH_CODE);
    }

    @Test
    @DisplayName("ipmitool's encrypted request decrypts to Set Session Privilege Level (administrator)")
    void decryptRequest() {
        byte[] covered = bytes(REQUEST_COVERED);
        byte[] encrypted = Arrays.copyOfRange(covered, 12, 44);
        byte[] plain = keys().confidentiality(Hex.fixed(new byte[1])).decrypt(encrypted, 16);
        assertThat(IpmiMessage.decode(plain, 0, plain.length))
                .isEqualTo(IpmiMessage.request(0x06, 0x3b, 1, new byte[] {0x04}));
        assertThat(hex(plain)).isEqualTo("2018c881043b043c");
    }

    @Test
    @DisplayName("the BMC's whole response datagram decodes to a successful reply")
    void decodeResponse() {
        SessionKeys keys = keys();
        byte[] datagram = bytes("0600ff07" + RESPONSE_COVERED + RESPONSE_AUTH_CODE);
        LanplusPacket packet = LanplusPacket.decode(datagram, datagram.length,
                keys.confidentiality(Hex.fixed(new byte[1])), keys.integrity());
        assertThat(packet.header()).isEqualTo(new SessionHeader(PayloadType.IPMI_MESSAGE, true, true,
                CONSOLE_SESSION_ID, 1, 32));
        IpmiMessage reply = packet.ipmiMessage();
        assertThat(reply.isResponse()).isTrue();
        assertThat(reply.command()).isEqualTo(0x3b);
        assertThat(reply.sequence()).isEqualTo(1);
        assertThat(reply.completionCode()).isZero();
        assertThat(reply.data()).containsExactly(0x00, 0x04);
        assertThat(reply.targetAddress()).isEqualTo(IpmiMessage.CONSOLE_ADDRESS);
    }

    @Test
    @DisplayName("the response with one AuthCode bit flipped is refused")
    void tamperedResponse() {
        SessionKeys keys = keys();
        byte[] datagram = bytes("0600ff07" + RESPONSE_COVERED + RESPONSE_AUTH_CODE);
        datagram[datagram.length - 1] ^= 1;
        assertThatThrownBy(() -> LanplusPacket.decode(datagram, datagram.length,
                keys.confidentiality(Hex.fixed(new byte[1])), keys.integrity()))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("AuthCode at offset 52");
    }
}
