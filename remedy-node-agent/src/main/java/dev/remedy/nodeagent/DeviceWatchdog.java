package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.WatchdogMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Linux watchdog device ({@code /dev/watchdog}): opening it arms it, every write feeds it, and writing {@code V}
 * before closing disarms it (the "magic close", refused by kernels built with {@code nowayout}). Its timeout is read
 * from {@code /sys/class/watchdog/watchdogN/timeout} (N from the device's name, 0 for {@code /dev/watchdog}): Java
 * cannot issue the {@code WDIOC_GETTIMEOUT} ioctl.
 *
 * <p>Tests point it at a regular file and a fake sysfs directory and read what it wrote: {@code 1} per feed,
 * {@code V} for the magic close.
 */
public final class DeviceWatchdog implements Watchdog {

    private static final Logger LOG = LoggerFactory.getLogger(DeviceWatchdog.class);
    private static final Pattern NUMBER = Pattern.compile("watchdog(\\d*)$");

    private final Path device;
    private final FileChannel channel;
    private final Duration timeout;
    private final boolean magicCloseAllowed;
    private boolean triggered;
    private boolean closed;

    private DeviceWatchdog(Path device, FileChannel channel, Duration timeout, boolean magicCloseAllowed) {
        this.device = device;
        this.channel = channel;
        this.timeout = timeout;
        this.magicCloseAllowed = magicCloseAllowed;
    }

    /**
     * Reads the device's timeout, then opens (arms) it.
     *
     * @param device            the device, such as {@code /dev/watchdog} or {@code /dev/watchdog1}
     * @param sysfs             the watchdog class directory, {@code /sys/class/watchdog}
     * @param magicCloseAllowed whether a clean {@link #close(boolean)} may disarm it
     * @throws IOException if the timeout cannot be read or the device cannot be opened; the message names which
     */
    public static DeviceWatchdog open(Path device, Path sysfs, boolean magicCloseAllowed) throws IOException {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(sysfs, "sysfs");
        Duration timeout = readTimeout(timeoutFile(device, sysfs));
        FileChannel channel = FileChannel.open(device, StandardOpenOption.WRITE);
        LOG.info("watchdog {} armed, timeout {}", device, timeout);
        return new DeviceWatchdog(device, channel, timeout, magicCloseAllowed);
    }

    /** {@code sysfs/watchdogN/timeout} for {@code /dev/watchdogN} ({@code watchdog0} for {@code /dev/watchdog}). */
    static Path timeoutFile(Path device, Path sysfs) throws IOException {
        Matcher m = NUMBER.matcher(device.getFileName().toString());
        if (!m.find()) {
            throw new IOException("the watchdog device " + device + " is not named watchdog or watchdogN, so its "
                    + "sysfs timeout cannot be found; give watchdogDevice as /dev/watchdog or /dev/watchdogN");
        }
        return sysfs.resolve("watchdog" + (m.group(1).isEmpty() ? "0" : m.group(1))).resolve("timeout");
    }

    private static Duration readTimeout(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            throw new IOException("cannot read the watchdog timeout: " + file + " does not exist; mount /sys into the "
                    + "agent's container", e);
        }
        try {
            long seconds = Long.parseLong(text);
            if (seconds < 1) {
                throw new NumberFormatException();
            }
            return Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            throw new IOException("the watchdog timeout in " + file + " is not a positive number of seconds", e);
        }
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
    public synchronized void feed() throws IOException {
        if (triggered || closed) {
            return;
        }
        channel.write(ByteBuffer.wrap(new byte[] {'1'}));
    }

    @Override
    public synchronized void trigger() {
        if (!triggered) {
            LOG.warn("watchdog {} is no longer fed: the node resets within {}", device, timeout);
        }
        triggered = true;
    }

    @Override
    public synchronized void close(boolean clean) {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (clean && magicCloseAllowed && !triggered) {
                channel.write(ByteBuffer.wrap(new byte[] {'V'}));
                LOG.info("watchdog {} disarmed (magic close)", device);
            } else {
                LOG.warn("watchdog {} closed armed: the node resets within {} unless another agent feeds it", device,
                        timeout);
            }
            channel.close();
        } catch (IOException e) {
            LOG.warn("closing the watchdog {} failed ({}); it stays armed", device, e.toString());
        }
    }
}
