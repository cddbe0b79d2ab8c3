package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("FenceAction")
class FenceActionTest {

    @Test
    @DisplayName("each action has the fence-agents lower-case code")
    void codes() {
        assertThat(Arrays.stream(FenceAction.values()).map(FenceAction::code))
                .containsExactly("on", "off", "reboot", "status", "list", "monitor");
    }

    @ParameterizedTest(name = "fromCode(\"{0}\") is {1}")
    @CsvSource({
        "on, ON", "off, OFF", "reboot, REBOOT", "status, STATUS", "list, LIST", "monitor, MONITOR",
        "OFF, OFF", "Reboot, REBOOT", "'  status  ', STATUS", "MONITOR, MONITOR"
    })
    @DisplayName("fromCode() finds an action by its code, ignoring case and surrounding blanks")
    void fromCode(String code, FenceAction expected) {
        assertThat(FenceAction.fromCode(code)).contains(expected);
    }

    @ParameterizedTest(name = "fromCode(\"{0}\") is empty")
    @ValueSource(strings = {"", " ", "of", "offf", "power-off", "REBOOT_", "1", "cycle"})
    @NullSource
    @DisplayName("fromCode() is empty for null and for anything that is not a code")
    void fromCodeUnknown(String code) {
        assertThat(FenceAction.fromCode(code)).isEmpty();
    }

    @ParameterizedTest(name = "{0} round-trips through its code")
    @EnumSource(FenceAction.class)
    @DisplayName("every action round-trips through its code")
    void roundTrip(FenceAction action) {
        assertThat(FenceAction.fromCode(action.code())).contains(action);
    }

    @Test
    @DisplayName("only ON, OFF and REBOOT change power")
    void changesPower() {
        EnumSet<FenceAction> changing = EnumSet.noneOf(FenceAction.class);
        for (FenceAction action : FenceAction.values()) {
            if (action.changesPower()) {
                changing.add(action);
            }
        }

        assertThat(changing).containsExactlyInAnyOrder(FenceAction.ON, FenceAction.OFF, FenceAction.REBOOT);
        assertThat(FenceAction.STATUS.changesPower()).isFalse();
        assertThat(FenceAction.LIST.changesPower()).isFalse();
        assertThat(FenceAction.MONITOR.changesPower()).isFalse();
    }
}
