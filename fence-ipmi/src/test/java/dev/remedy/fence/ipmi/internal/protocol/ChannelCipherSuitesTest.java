package dev.remedy.fence.ipmi.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChannelCipherSuitesTest {

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    @Test
    @DisplayName("the request asks this channel, IPMI payload, list by suite, at the given page")
    void request() {
        assertThat(ChannelCipherSuites.requestData(2)).containsExactly(0x0E, 0x00, 0x82);
    }

    @Test
    @DisplayName("standard and OEM records give their suite ids, algorithm bytes never read as a record start")
    void suiteIds() {
        byte[] records = bytes("c0 03 01 41 81" + " c1 05 a2 02 00 01 41 80" + " c0 11 03 44 81" + " c0 00 00 40 80");
        assertThat(ChannelCipherSuites.suiteIds(records)).containsExactly(3, 5, 17, 0);
        assertThat(ChannelCipherSuites.suiteIds(new byte[0])).isEmpty();
    }

    @Test
    @DisplayName("the channel byte is dropped from the record bytes; a response without it is malformed")
    void records() {
        assertThat(ChannelCipherSuites.records(bytes("01 c0 03"))).containsExactly(0xC0, 0x03);
        assertThatThrownBy(() -> ChannelCipherSuites.records(new byte[0]))
                .isInstanceOf(MalformedPacketException.class).hasMessageContaining("channel");
    }
}
