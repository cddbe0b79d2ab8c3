package dev.remedy.fence.clusterlabs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the plugs an agent lists")
class PlugListTest {

    @Test
    @DisplayName("list prints plug,alias; an alias may hold commas; N/A and notices are not plugs")
    void list() {
        assertThat(PlugList.parse("1,web-1\n2,db, primary\nN/A\nNOTICE: List option is not working on this device yet\n"
                + "\n", false, UnaryOperator.identity())).containsExactly(new Plug("1", "web-1", PowerState.UNKNOWN),
                new Plug("2", "db, primary", PowerState.UNKNOWN));
    }

    @Test
    @DisplayName("list-status adds the state after the last comma")
    void listStatus() {
        assertThat(PlugList.parse("1,web-1,ON\r\n2,db, primary,OFF\n3,,UNKNOWN\n", true, UnaryOperator.identity()))
                .containsExactly(new Plug("1", "web-1", PowerState.ON), new Plug("2", "db, primary", PowerState.OFF),
                        new Plug("3", "", PowerState.UNKNOWN));
    }
}
