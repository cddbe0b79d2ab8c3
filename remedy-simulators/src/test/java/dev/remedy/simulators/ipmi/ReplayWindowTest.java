package dev.remedy.simulators.ipmi;

import static dev.remedy.simulators.ipmi.ReplayWindow.Verdict.DUPLICATE;
import static dev.remedy.simulators.ipmi.ReplayWindow.Verdict.NEW;
import static dev.remedy.simulators.ipmi.ReplayWindow.Verdict.OUT_OF_RANGE;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The inbound sequence number window")
class ReplayWindowTest {

    private final ReplayWindow window = new ReplayWindow();

    @Test
    @DisplayName("zero is never valid; increasing numbers are new, a repeated one is a duplicate")
    void basics() {
        assertThat(window.accept(0)).isEqualTo(OUT_OF_RANGE);
        assertThat(window.accept(1)).isEqualTo(NEW);
        assertThat(window.accept(2)).isEqualTo(NEW);
        assertThat(window.accept(2)).isEqualTo(DUPLICATE);
        assertThat(window.accept(1)).isEqualTo(DUPLICATE);
    }

    @Test
    @DisplayName("late numbers within 32 are accepted once; older ones are out of range")
    void lateArrivals() {
        assertThat(window.accept(100)).isEqualTo(NEW);
        assertThat(window.accept(69)).isEqualTo(NEW);
        assertThat(window.accept(69)).isEqualTo(DUPLICATE);
        assertThat(window.accept(68)).isEqualTo(OUT_OF_RANGE);
        assertThat(window.accept(140)).isEqualTo(NEW);
        assertThat(window.accept(100)).isEqualTo(OUT_OF_RANGE);
    }

    @Test
    @DisplayName("numbers are unsigned 32-bit: 0xFFFFFFFF is above 0x7FFFFFFF")
    void unsigned() {
        assertThat(window.accept(0x7fffffff)).isEqualTo(NEW);
        assertThat(window.accept(0xffffffff)).isEqualTo(NEW);
        assertThat(window.accept(0xfffffffe)).isEqualTo(NEW);
        assertThat(window.accept(0x7fffffff)).isEqualTo(OUT_OF_RANGE);
    }
}
