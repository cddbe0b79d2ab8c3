package dev.remedy.nodeagent.internal;

import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.nodeagent.Watchdog;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Neither a watchdog device nor a software reboot: the agent decides, reports {@code none}, and resets nothing. */
public final class NoWatchdog implements Watchdog {

    private static final Logger LOG = LoggerFactory.getLogger(NoWatchdog.class);

    @Override
    public WatchdogMode mode() {
        return WatchdogMode.NONE;
    }

    @Override
    public Optional<Duration> timeout() {
        return Optional.empty();
    }

    @Override
    public void feed() {
        // nothing to feed
    }

    @Override
    public void trigger() {
        LOG.error("the node is unhealthy but has no watchdog and watchdogFallback is none: it is NOT reset; the "
                + "operator must not assume it was");
    }

    @Override
    public void close(boolean clean) {
        // nothing is armed
    }
}
