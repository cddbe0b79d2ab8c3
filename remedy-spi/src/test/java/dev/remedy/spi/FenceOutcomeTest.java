package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceOutcome")
class FenceOutcomeTest {

    private static final Plug OUTLET_1 = new Plug("1", "web-1", PowerState.ON);
    private static final Plug OUTLET_2 = new Plug("2", "", PowerState.UNKNOWN);

    @Test
    @DisplayName("succeeded() is a success with the power read back and nothing else")
    void succeeded() {
        FenceOutcome outcome = FenceOutcome.succeeded(PowerState.OFF, "node-7 is off");

        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.isSuccess()).isTrue();
        assertThat(outcome.power()).isEqualTo(PowerState.OFF);
        assertThat(outcome.detail()).isEqualTo("node-7 is off");
        assertThat(outcome.cause()).isEmpty();
        assertThat(outcome.attempts()).isZero();
        assertThat(outcome.elapsed()).isEqualTo(Duration.ZERO);
        assertThat(outcome.plugs()).isEmpty();
    }

    @Test
    @DisplayName("failed() keeps the power state read last and is not a success")
    void failed() {
        FenceOutcome outcome = FenceOutcome.failed(PowerState.ON, "BMC refused the credentials");

        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.isSuccess()).isFalse();
        assertThat(outcome.power()).isEqualTo(PowerState.ON);
        assertThat(outcome.detail()).isEqualTo("BMC refused the credentials");
    }

    @Test
    @DisplayName("timedOut() has an unknown power state and is not a success")
    void timedOut() {
        FenceOutcome outcome = FenceOutcome.timedOut("no OFF after 20 polls");

        assertThat(outcome.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(outcome.isSuccess()).isFalse();
        assertThat(outcome.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(outcome.detail()).isEqualTo("no OFF after 20 polls");
    }

    @Test
    @DisplayName("refused() has an unknown power state and is not a success")
    void refused() {
        FenceOutcome outcome = FenceOutcome.refused("unknown host key");

        assertThat(outcome.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(outcome.isSuccess()).isFalse();
        assertThat(outcome.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(outcome.detail()).isEqualTo("unknown host key");
    }

    @Test
    @DisplayName("unsupported() names the agent type and the action code")
    void unsupported() {
        FenceOutcome outcome = FenceOutcome.unsupported("ipmi", FenceAction.LIST);

        assertThat(outcome.status()).isEqualTo(FenceStatus.UNSUPPORTED);
        assertThat(outcome.isSuccess()).isFalse();
        assertThat(outcome.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(outcome.detail()).isEqualTo("agent 'ipmi' does not support action 'list'");
    }

    @Test
    @DisplayName("of() builds an outcome of any status with no cause, attempts, time or plugs")
    void of() {
        FenceOutcome outcome = FenceOutcome.of(FenceStatus.FAILED, PowerState.OFF, "detail");

        assertThat(outcome).isEqualTo(new FenceOutcome(FenceStatus.FAILED, PowerState.OFF, "detail",
                Optional.empty(), 0, Duration.ZERO, List.of()));
    }

    @Test
    @DisplayName("the with* methods each replace one field and keep the others")
    void withMethods() {
        IOException error = new IOException("connection reset");
        FenceOutcome base = FenceOutcome.failed(PowerState.ON, "could not reach the BMC");

        FenceOutcome full = base.withCause(error)
                .withAttempts(3)
                .withElapsed(Duration.ofMillis(1500))
                .withPlugs(List.of(OUTLET_1, OUTLET_2));

        assertThat(full.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(full.power()).isEqualTo(PowerState.ON);
        assertThat(full.detail()).isEqualTo("could not reach the BMC");
        assertThat(full.cause()).containsSame(error);
        assertThat(full.attempts()).isEqualTo(3);
        assertThat(full.elapsed()).isEqualTo(Duration.ofMillis(1500));
        assertThat(full.plugs()).containsExactly(OUTLET_1, OUTLET_2);

        FenceOutcome changed = full.withAttempts(4);
        assertThat(changed.attempts()).isEqualTo(4);
        assertThat(changed.cause()).containsSame(error);
        assertThat(changed.elapsed()).isEqualTo(Duration.ofMillis(1500));
        assertThat(changed.plugs()).containsExactly(OUTLET_1, OUTLET_2);
        assertThat(full.withElapsed(Duration.ofSeconds(2)).attempts()).isEqualTo(3);
        assertThat(full.withCause(new IllegalStateException("other")).plugs()).hasSize(2);
        assertThat(full.withPlugs(List.of()).cause()).containsSame(error);
    }

    @Test
    @DisplayName("with* methods leave the original outcome unchanged")
    void withMethodsDoNotMutate() {
        FenceOutcome base = FenceOutcome.succeeded(PowerState.OFF, "off");

        base.withAttempts(5);
        base.withCause(new IOException("x"));
        base.withElapsed(Duration.ofSeconds(1));
        base.withPlugs(List.of(OUTLET_1));

        assertThat(base).isEqualTo(FenceOutcome.succeeded(PowerState.OFF, "off"));
    }

    @Test
    @DisplayName("the plug list is copied and cannot be changed afterwards")
    void plugsAreCopied() {
        List<Plug> plugs = new ArrayList<>(List.of(OUTLET_1));

        FenceOutcome outcome = FenceOutcome.succeeded(PowerState.UNKNOWN, "listed").withPlugs(plugs);
        plugs.add(OUTLET_2);

        assertThat(outcome.plugs()).containsExactly(OUTLET_1);
        assertThatThrownBy(() -> outcome.plugs().add(OUTLET_2)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    @DisplayName("toString() shows status, power, attempts, elapsed milliseconds and detail")
    void toStringPlain() {
        FenceOutcome outcome = FenceOutcome.succeeded(PowerState.OFF, "node-7 is off")
                .withAttempts(2).withElapsed(Duration.ofMillis(1234));

        assertThat(outcome).hasToString("SUCCEEDED power=OFF attempts=2 elapsed=1234ms: node-7 is off");
    }

    @Test
    @DisplayName("toString() adds the cause and the number of plugs when there are any")
    void toStringWithCauseAndPlugs() {
        FenceOutcome outcome = FenceOutcome.failed(PowerState.UNKNOWN, "no answer")
                .withCause(new IOException("connection reset"))
                .withPlugs(List.of(OUTLET_1, OUTLET_2));

        assertThat(outcome).hasToString("FAILED power=UNKNOWN attempts=0 elapsed=0ms: no answer"
                + " (cause: java.io.IOException: connection reset) plugs=2");
    }

    @Test
    @DisplayName("negative attempts and negative elapsed time are refused")
    void refusesNegatives() {
        FenceOutcome base = FenceOutcome.failed(PowerState.UNKNOWN, "x");

        assertThatThrownBy(() -> base.withAttempts(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attempts")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> base.withElapsed(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("elapsed")
                .hasMessageContaining("PT-0.001S");
        assertThat(base.withAttempts(0).attempts()).isZero();
    }

    @Test
    @DisplayName("every field is required")
    void refusesNulls() {
        Duration zero = Duration.ZERO;
        Optional<Throwable> none = Optional.empty();
        assertThatThrownBy(() -> new FenceOutcome(null, PowerState.ON, "d", none, 0, zero, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("status");
        assertThatThrownBy(() -> new FenceOutcome(FenceStatus.FAILED, null, "d", none, 0, zero, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("power");
        assertThatThrownBy(() -> new FenceOutcome(FenceStatus.FAILED, PowerState.ON, null, none, 0, zero, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("detail");
        assertThatThrownBy(() -> new FenceOutcome(FenceStatus.FAILED, PowerState.ON, "d", null, 0, zero, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("cause");
        assertThatThrownBy(() -> new FenceOutcome(FenceStatus.FAILED, PowerState.ON, "d", none, 0, null, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("elapsed");
        assertThatThrownBy(() -> new FenceOutcome(FenceStatus.FAILED, PowerState.ON, "d", none, 0, zero, null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> FenceOutcome.failed(PowerState.ON, "d").withCause(null))
                .isInstanceOf(NullPointerException.class);
    }
}
