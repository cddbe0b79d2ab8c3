package dev.remedy.nodeagent.internal;

import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.nodeagent.Watchdog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fallback without a watchdog device: {@link #trigger()} writes {@code b} to the sysrq trigger, an immediate
 * reboot without syncing or unmounting. Nothing resets a node whose agent or kernel hangs.
 */
public final class SoftwareReboot implements Watchdog {

    private static final Logger LOG = LoggerFactory.getLogger(SoftwareReboot.class);

    private final Path trigger;
    private boolean triggered;

    /** A reboot through {@code trigger} ({@code /proc/sysrq-trigger}). */
    public SoftwareReboot(Path trigger) {
        this.trigger = trigger;
    }

    @Override
    public WatchdogMode mode() {
        return WatchdogMode.SOFTWARE_REBOOT;
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
    public synchronized void trigger() throws IOException {
        if (triggered) {
            return;
        }
        triggered = true;
        LOG.warn("rebooting the node: writing b to {}", trigger);
        Files.writeString(trigger, "b", StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
    }

    @Override
    public void close(boolean clean) {
        // nothing is armed
    }
}
