package dev.remedy.simulators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PeerCommandTest {

    @Test
    @DisplayName("passes the environment and standard input, and returns the exit code with the merged output")
    void environmentInputAndExitCode() throws InterruptedException {
        PeerCommand.Result result = new PeerCommand(List.of("sh", "-c",
                "read line; echo \"$GREETING $line\"; echo oops >&2; exit 3"), Map.of("GREETING", "hello"),
                "world\n", Duration.ofSeconds(10)).run();

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.timedOut()).isFalse();
        assertThat(result.output()).isEqualTo("hello world\noops");
        assertThat(result.nanos()).isPositive();
    }

    @Test
    @DisplayName("kills a program past its timeout, children included, and says so")
    void timeout() throws InterruptedException {
        PeerCommand.Result result = PeerCommand.of(Duration.ofMillis(200), "sh", "-c", "sleep 30; echo late").run();

        assertThat(result.timedOut()).isTrue();
        assertThat(result.output()).isEqualTo("sh did not finish within 200 ms");
    }

    @Test
    @DisplayName("a missing program is an error naming it; an empty command or a zero timeout is refused")
    void badInput() {
        assertThatThrownBy(() -> PeerCommand.of(Duration.ofSeconds(1), "no-such-program-remedy").run())
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("could not run no-such-program-remedy");
        assertThatThrownBy(() -> PeerCommand.of(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("command");
        assertThatThrownBy(() -> PeerCommand.of(Duration.ZERO, "true"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
    }
}
