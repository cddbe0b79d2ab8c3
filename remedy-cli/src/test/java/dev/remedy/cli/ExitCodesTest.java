package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("ExitCodes")
class ExitCodesTest {

    @ParameterizedTest(name = "{0} exits {1}")
    @CsvSource({"FAILED, 1", "TIMED_OUT, 4", "UNSUPPORTED, 5", "REFUSED, 6"})
    @DisplayName("each non-success status has its own exit code, whatever the action")
    void nonSuccess(FenceStatus status, int expected) {
        for (FenceAction action : FenceAction.values()) {
            assertThat(ExitCodes.of(action, FenceOutcome.of(status, PowerState.UNKNOWN, "x")))
                    .as("%s of %s", status, action).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(FenceAction.class)
    @DisplayName("a success exits 0, except a STATUS that read OFF")
    void success(FenceAction action) {
        int expectedWhenOff = action == FenceAction.STATUS ? ExitCodes.STATUS_OFF : ExitCodes.OK;

        assertThat(ExitCodes.of(action, FenceOutcome.succeeded(PowerState.ON, "x"))).isEqualTo(ExitCodes.OK);
        assertThat(ExitCodes.of(action, FenceOutcome.succeeded(PowerState.OFF, "x"))).isEqualTo(expectedWhenOff);
    }

    @Test
    @DisplayName("the codes are those of the fence agents (0, 1, 2) followed by remedy's own")
    void values() {
        assertThat(new int[] {ExitCodes.OK, ExitCodes.FAILED, ExitCodes.STATUS_OFF, ExitCodes.BAD_INPUT,
            ExitCodes.TIMED_OUT, ExitCodes.UNSUPPORTED, ExitCodes.REFUSED}).containsExactly(0, 1, 2, 3, 4, 5, 6);
    }
}
