package dev.remedy.fence.kube.agent;

import dev.remedy.spi.TimeSource;
import dev.remedy.test.FakeTimeSource;
import java.time.Duration;
import java.time.Instant;

/**
 * A fake clock for the agent whose every sleep (an agent's poll interval) moves time on and runs one step of a fake
 * controller: the agent's polls and the controller's moves alternate deterministically, on one thread.
 */
final class SteppingClock implements TimeSource {

    private final FakeTimeSource time = new FakeTimeSource();
    private final Runnable step;
    private int sleeps;

    SteppingClock(Runnable step) {
        this.step = step;
    }

    @Override
    public long nanoTime() {
        return time.nanoTime();
    }

    @Override
    public Instant instant() {
        return time.instant();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        time.sleep(duration);
        sleeps++;
        step.run();
    }

    /** How many times the agent slept. */
    int sleeps() {
        return sleeps;
    }
}
