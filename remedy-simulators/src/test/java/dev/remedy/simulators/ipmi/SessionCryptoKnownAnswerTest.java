package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Known answers captured from one real session: {@code ipmitool 1.8.19 -I lanplus -C 3 -vvvv chassis power
 * status} against OpenIPMI {@code ipmi_sim} 2.0.33, user "admin", password "secret", BMC GUID
 * a123456789abcdefa123456789abcdef (values from ipmitool's debug output). The simulator's BMC side must compute
 * the same codes and keys, open ipmitool's first request, and seal ipmi_sim's answer to the same bytes.
 */
@DisplayName("BMC-side session crypto against a captured ipmitool / ipmi_sim session (cipher suite 3)")
class SessionCryptoKnownAnswerTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] KUID = new BmcUser("admin", "secret", Privilege.ADMINISTRATOR).kuid();
    private static final byte[] NAME = "admin".getBytes(StandardCharsets.US_ASCII);
    private static final int CONSOLE_ID = 0xa0a2a3a4;
    private static final int BMC_ID = 0x00000002;
    private static final byte[] RM = HEX.parseHex("4516b9a1cc61cc76a973d8935325c004");
    private static final byte[] RC = HEX.parseHex("ad43b6b9523f1d0e15000a0ba973dff3");
    private static final byte[] GUID = HEX.parseHex("a123456789abcdefa123456789abcdef");
    private static final int ROLE = 0x14;

    private static final String SIK = "82a6e740fe9db161674eed975572f906906ba9a9";
    private static final String K1 = "eaa0db5f556f9cc50672e770251d61d1ed05d6fa";
    private static final String K2 = "f917a2fec65551a1138c1e75f93358f9d0c87beb";
    /** Set Session Privilege Level (administrator) as ipmitool sent it. */
    private static final String REQUEST = "0600ff07" + "06c002000000030000002000"
            + "d3ee24aa54535273aa6c5de1f548fc66" + "176d5ac907de6494ce7c8b23584f8608" + "ffff0207"
            + "b7df3074a35d599db89bf7cb";
    /** ipmi_sim's answer: IV 449a..., sequence 1, to the console's session id. */
    private static final String RESPONSE = "0600ff07" + "06c0a4a3a2a0010000002000"
            + "449a9218b98816ae34d6fea6a44f02df" + "33a204e942ab31a88d631b0f48fc1dbe" + "ffff0207"
            + "11e698b0a88a2bd2a9ba909a";

    private final Crypto crypto = new Crypto();

    @Test
    @DisplayName("the RAKP 2 code, the expected RAKP 3 code and the RAKP 4 check value match the captured ones")
    void rakpCodes() {
        CipherSuite suite = CipherSuite.SUITE_3;
        assertThat(HEX.formatHex(Rakp.rakp2Code(crypto, suite, KUID, CONSOLE_ID, BMC_ID, RM, RC, GUID, ROLE, NAME)))
                .isEqualTo("8f0b9cef5889bb1a1d3f38f80f0097c6657d880d");
        assertThat(HEX.formatHex(Rakp.rakp3Code(crypto, suite, KUID, RC, CONSOLE_ID, ROLE, NAME)))
                .isEqualTo("1fae2be1017e611e0baf00b67b4f65291a7aa972");
        byte[] sik = Rakp.sik(crypto, suite, KUID, RM, RC, ROLE, NAME);
        assertThat(HEX.formatHex(sik)).isEqualTo(SIK);
        assertThat(HEX.formatHex(Rakp.rakp4Icv(crypto, suite, sik, RM, BMC_ID, GUID)))
                .isEqualTo("368443b7fa51ce9861e2e410");
    }

    @Test
    @DisplayName("K1 and K2 are the HMACs of 20-byte constants under the SIK, as ipmitool derived them")
    void derivedKeys() {
        byte[] sik = HEX.parseHex(SIK);
        assertThat(HEX.formatHex(Rakp.derivedKey(crypto, CipherSuite.SUITE_3, sik, 1))).isEqualTo(K1);
        assertThat(HEX.formatHex(Rakp.derivedKey(crypto, CipherSuite.SUITE_3, sik, 2))).isEqualTo(K2);
    }

    @Test
    @DisplayName("the session opens ipmitool's encrypted, authenticated request to Set Session Privilege Level")
    void opensCapturedRequest() {
        BmcSession session = activeSession();
        byte[] datagram = HEX.parseHex(REQUEST);

        int length = session.open(datagram, datagram.length, crypto);

        assertThat(length).isEqualTo(8);
        assertThat(HEX.formatHex(crypto.plain, 0, length)).isEqualTo("2018c881043b043c");
    }

    @Test
    @DisplayName("a request with one AuthCode bit flipped does not open")
    void refusesTamperedRequest() {
        BmcSession session = activeSession();
        byte[] datagram = HEX.parseHex(REQUEST);
        datagram[datagram.length - 1] ^= 1;

        assertThat(session.open(datagram, datagram.length, crypto)).isEqualTo(-1);
    }

    @Test
    @DisplayName("sealing the answer with ipmi_sim's IV and sequence number gives ipmi_sim's datagram byte for byte")
    void sealsLikeIpmiSim() {
        BmcSession session = activeSession();
        IpmiRequest request = IpmiRequest.decode(HEX.parseHex("2018c881043b043c"), 0, 8);
        byte[] message = new byte[64];
        int messageLength = request.encodeResponse(IpmiResponse.ok((byte) 0x04), message, 0);
        byte[] out = new byte[Crypto.MAX_DATAGRAM];

        int length = session.seal(message, messageLength, out, crypto, HEX.parseHex("449a9218b98816ae34d6fea6a44f02df"),
                1);

        assertThat(HEX.formatHex(out, 0, length)).isEqualTo(RESPONSE);
    }

    private static BmcSession activeSession() {
        BmcSession session = new BmcSession(BMC_ID, CONSOLE_ID, CipherSuite.SUITE_3, 0);
        session.activate(HEX.parseHex(K1), HEX.parseHex(K2), Privilege.ADMINISTRATOR);
        return session;
    }
}
