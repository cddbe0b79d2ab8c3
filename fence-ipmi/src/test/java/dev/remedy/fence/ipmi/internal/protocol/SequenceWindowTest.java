package dev.remedy.fence.ipmi.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SequenceWindowTest {

    private final SequenceWindow window = new SequenceWindow();

    @Test
    @DisplayName("each number is accepted once; 0 never")
    void once() {
        assertThat(window.accept(0)).isFalse();
        assertThat(window.accept(5)).isTrue();
        assertThat(window.accept(5)).isFalse();
        assertThat(window.accept(6)).isTrue();
        assertThat(window.accept(6)).isFalse();
    }

    @Test
    @DisplayName("late packets within 16 are accepted once; older ones and ones too far ahead are refused")
    void reorderingWithinTheWindow() {
        assertThat(window.accept(100)).isTrue();
        assertThat(window.accept(110)).isTrue();
        assertThat(window.accept(101)).isTrue();
        assertThat(window.accept(101)).isFalse();
        assertThat(window.accept(94)).as("16 behind 110").isTrue();
        assertThat(window.accept(93)).as("17 behind 110").isFalse();
        assertThat(window.accept(127)).as("17 ahead of 110").isFalse();
        assertThat(window.accept(126)).as("16 ahead of 110").isTrue();
        assertThat(window.accept(110)).as("a replay of the old highest").isFalse();
    }

    @Test
    @DisplayName("numbers wrap past 2^32 - 1 to 1")
    void wraps() {
        assertThat(window.accept(-2)).isTrue();
        assertThat(window.accept(-1)).isTrue();
        assertThat(window.accept(1)).isTrue();
        assertThat(window.accept(-1)).isFalse();
        assertThat(window.accept(-2)).isFalse();
        assertThat(window.accept(2)).isTrue();
    }
}
