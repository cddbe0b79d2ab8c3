package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.spi.TimeSource;
import java.time.Duration;
import java.util.Optional;

/**
 * A watchdog device on a fake clock: it fires when it was armed and not fed for its timeout, as the kernel's does.
 * The device implementation itself is tested on a file ({@link DeviceWatchdogTest}).
 */
final class FakeWatchdog implements Watchdog {

    private final TimeSource time;
    private final Duration timeout;
    private long lastFeed;
    private int feeds;
    private boolean triggered;
    private boolean disarmed;

    FakeWatchdog(TimeSource time, Duration timeout) {
        this.time = time;
        this.timeout = timeout;
        this.lastFeed = time.nanoTime();
    }

    @Override
    public WatchdogMode mode() {
        return WatchdogMode.ARMED;
    }

    @Override
    public Optional<Duration> timeout() {
        return Optional.of(timeout);
    }

    @Override
    public synchronized void feed() {
        if (!triggered && !disarmed && !fired()) {
            lastFeed = time.nanoTime();
            feeds++;
        }
    }

    @Override
    public synchronized void trigger() {
        triggered = true;
    }

    @Override
    public synchronized void close(boolean clean) {
        if (clean && !triggered) {
            disarmed = true;
        }
    }

    /** Whether the device has reset the node: armed, and not fed for its timeout. */
    synchronized boolean fired() {
        return !disarmed && time.nanoTime() - lastFeed >= timeout.toNanos();
    }

    synchronized boolean triggered() {
        return triggered;
    }

    synchronized int feeds() {
        return feeds;
    }
}
