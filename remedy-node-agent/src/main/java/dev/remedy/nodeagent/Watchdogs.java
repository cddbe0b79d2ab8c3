package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogFallback;
import dev.remedy.nodeagent.internal.NoWatchdog;
import dev.remedy.nodeagent.internal.SoftwareReboot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the watchdog the settings ask for: the device if it exists, else the configured fallback. */
public final class Watchdogs {

    /** Where the kernel describes watchdog devices ({@code watchdogN/timeout}). */
    public static final Path SYSFS = Path.of("/sys/class/watchdog");

    private static final Logger LOG = LoggerFactory.getLogger(Watchdogs.class);

    private Watchdogs() {
    }

    /**
     * The settings' watchdog device, opened and so armed, or the fallback when the device does not exist.
     *
     * @param settings the agent's settings
     * @param sysfs    where the device's timeout is read ({@link #SYSFS})
     * @throws IOException if the device exists but cannot be opened, or its timeout cannot be read: an agent that
     *                     cannot arm an existing watchdog refuses to start rather than run without
     */
    public static Watchdog open(NodeAgentSettings settings, Path sysfs) throws IOException {
        Objects.requireNonNull(settings, "settings");
        Path device = settings.watchdogDevice();
        if (Files.exists(device)) {
            DeviceWatchdog watchdog = DeviceWatchdog.open(device, sysfs, settings.watchdogMagicClose());
            if (watchdog.timeout().orElseThrow().compareTo(settings.timings().watchdogTimeout()) > 0) {
                LOG.warn("the watchdog {} has a timeout of {}, longer than the settings' watchdogTimeout {}: the "
                        + "agent reports the device's, and the operator must wait the longer one; set watchdogTimeout "
                        + "to at least the device's", device, watchdog.timeout().orElseThrow(),
                        settings.timings().watchdogTimeout());
            }
            return watchdog;
        }
        if (settings.watchdogFallback() == WatchdogFallback.SOFTWARE_REBOOT) {
            LOG.warn("no watchdog device {}: falling back to a software reboot through {}; a hung agent or kernel "
                    + "will NOT be reset", device, settings.sysrqTrigger());
            return new SoftwareReboot(settings.sysrqTrigger());
        }
        LOG.warn("no watchdog device {} and watchdogFallback is none: this node will never be reset by its agent",
                device);
        return new NoWatchdog();
    }
}
