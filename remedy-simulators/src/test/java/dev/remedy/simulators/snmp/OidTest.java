package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OidTest {

    @Test
    @DisplayName("OIDs compare arc by arc, numerically, with a prefix first")
    void walkOrder() {
        assertThat(Oid.parse("1.3.6.1.2")).isLessThan(Oid.parse("1.3.6.1.10"));
        assertThat(Oid.parse("1.3.6.1")).isLessThan(Oid.parse("1.3.6.1.0"));
        assertThat(Oid.parse(".1.3.6.1")).isEqualTo(Oid.parse("1.3.6.1")).hasSameHashCodeAs(Oid.of(1, 3, 6, 1));
        assertThat(Oid.parse("1.3.6.1").child(4, 1)).hasToString(".1.3.6.1.4.1");
        assertThat(Oid.parse("1.3.6.1.4.1").startsWith(Oid.parse("1.3.6"))).isTrue();
        assertThat(Oid.parse("1.3.6").startsWith(Oid.parse("1.3.6.1"))).isFalse();
        assertThat(Oid.parse("1.3.2147483647")).isGreaterThan(Oid.parse("1.3.5"));
    }

    @Test
    @DisplayName("text that is not dotted decimal is refused with the text in the message")
    void refusesBadText() {
        for (String bad : new String[] {"", ".", "1..3", "1.3.", "iso.3", "1.-3", "1.99999999999"}) {
            assertThatThrownBy(() -> Oid.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
    }
}
