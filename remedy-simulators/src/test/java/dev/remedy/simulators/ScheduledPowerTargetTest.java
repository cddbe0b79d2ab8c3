package dev.remedy.simulators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The machine behind a simulated BMC or Redfish resource")
class ScheduledPowerTargetTest {

    private final FakeTimeSource clock = new FakeTimeSource();
    private final ScheduledPowerTarget target = new ScheduledPowerTarget(PowerState.ON, clock::nanoTime);

    @Test
    @DisplayName("without a delay a command acts at once and the history records each change")
    void immediate() {
        target.commandSteps(PowerState.OFF);
        target.commandSteps(PowerState.OFF);
        target.commandSteps(PowerState.OFF, PowerState.ON);

        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("with a delay each step of a cycle shows one delay after the previous")
    void delayed() {
        target.delay(Duration.ofSeconds(2));
        target.commandSteps(PowerState.OFF, PowerState.ON);

        clock.advance(Duration.ofMillis(1999));
        assertThat(target.power()).isEqualTo(PowerState.ON);
        clock.advance(Duration.ofMillis(1));
        assertThat(target.power()).isEqualTo(PowerState.OFF);
        clock.advance(Duration.ofSeconds(2));
        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("setting power directly cancels a change under way; clearHistory forgets")
    void directSet() {
        target.delay(Duration.ofSeconds(2));
        target.commandSteps(PowerState.OFF);
        target.power(PowerState.ON);
        clock.advance(Duration.ofSeconds(5));

        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(target.history()).isEmpty();
        target.power(PowerState.OFF);
        target.clearHistory();
        assertThat(target.history()).isEmpty();
        assertThat(target.power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("UNKNOWN and negative delays are refused with a reason")
    void refusals() {
        assertThatThrownBy(() -> target.power(PowerState.UNKNOWN)).hasMessageContaining("ON or OFF");
        assertThatThrownBy(() -> target.delay(Duration.ofSeconds(-1))).hasMessageContaining("must not be negative");
    }
}
