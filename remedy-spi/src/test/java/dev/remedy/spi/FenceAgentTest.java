package dev.remedy.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FenceAgentTest {

    /** Runs tasks when asked, so a test sees that nothing ran on the caller's thread. */
    private static final class QueuedExecutor implements Executor {
        private final List<Runnable> tasks = new ArrayList<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            tasks.forEach(Runnable::run);
        }
    }

    private static FenceContext context() {
        return FenceContext.start(TimeSource.system(), Duration.ofSeconds(5));
    }

    @Test
    @DisplayName("executeAsync by default runs execute on the given executor, not on the caller's thread")
    void defaultRunsOnTheExecutor() {
        FenceAgent agent = (request, context) -> FenceOutcome.succeeded(PowerState.OFF, "off: " + request.initiator());
        QueuedExecutor executor = new QueuedExecutor();
        CompletableFuture<FenceOutcome> outcome = agent.executeAsync(new FenceRequest(FenceAction.OFF, "test"),
                context(), executor);
        assertThat(outcome).isNotDone();
        executor.runAll();
        assertThat(outcome.join().detail()).isEqualTo("off: test");
    }

    @Test
    @DisplayName("an interrupted execute fails the future with a cancellation and keeps the interrupt flag")
    void interruptBecomesCancellation() {
        FenceAgent agent = (request, context) -> {
            throw new InterruptedException("stop");
        };
        CompletableFuture<FenceOutcome> outcome = agent.executeAsync(new FenceRequest(FenceAction.REBOOT, "test"),
                context(), Runnable::run);
        assertThat(Thread.interrupted()).isTrue();
        assertThat(catchThrowable(outcome::join)).isInstanceOf(CancellationException.class)
                .hasMessageContaining("REBOOT");
    }

    @Test
    @DisplayName("a runtime failure of execute fails the future with that failure")
    void failurePropagates() {
        FenceAgent agent = (request, context) -> {
            throw new IllegalStateException("broken agent");
        };
        CompletableFuture<FenceOutcome> outcome = agent.executeAsync(new FenceRequest(FenceAction.OFF, "test"),
                context(), Runnable::run);
        assertThat(catchThrowable(outcome::join)).isInstanceOf(CompletionException.class)
                .hasRootCauseMessage("broken agent");
    }
}
