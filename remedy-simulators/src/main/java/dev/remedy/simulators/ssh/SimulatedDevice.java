package dev.remedy.simulators.ssh;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.Collections;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The state behind an {@link SshDeviceSimulator}'s CLI, which tests read and set directly: each plug's power
 * (outlet on or off, interface or port enabled or disabled) and, for a Linux host, its reboots and its kubelet.
 * Every session of the simulator shares it. Thread-safe.
 */
public final class SimulatedDevice {

    /** The kubelet states a test may set. */
    private static final Set<String> KUBELET_STATES = Set.of("active", "inactive", "failed");

    private final DeviceKind kind;
    private final Map<String, ScheduledPowerTarget> ports;
    private final Map<String, String> names;
    private final Set<String> linksDown = new HashSet<>();
    private final Map<String, String> statusWords = new HashMap<>();
    private final Map<String, Long> offCommandedAt = new HashMap<>();
    private final Map<String, List<Duration>> offTimes = new HashMap<>();
    private final Map<String, PowerState> saved = new HashMap<>();
    private final LongSupplier nanoClock;
    private final Duration powerDelay;
    private final Duration rebootTime;
    private final Runnable dropSessions;
    private int reboots;
    private int kubeletRestarts;
    private long downUntil;
    private boolean down;
    private String kubelet = "active";
    private long kubeletActiveAt;
    private boolean kubeletStarting;

    SimulatedDevice(SshDeviceSpec spec, Runnable dropSessions) {
        this.kind = spec.device();
        this.nanoClock = spec.nanoClock();
        this.powerDelay = spec.powerDelay();
        this.rebootTime = spec.rebootTime();
        this.dropSessions = dropSessions;
        Map<String, ScheduledPowerTarget> plugs = new LinkedHashMap<>();
        Map<String, String> named = new LinkedHashMap<>();
        if (kind != DeviceKind.LINUX_HOST) {
            for (int i = 0; i < spec.ports(); i++) {
                ScheduledPowerTarget target = new ScheduledPowerTarget(PowerState.ON, nanoClock);
                target.delay(powerDelay);
                plugs.put(spec.plug(i), target);
                named.put(spec.plug(i), spec.portNames().getOrDefault(spec.plug(i), kind.defaultName(i)));
            }
        }
        this.ports = Collections.unmodifiableMap(plugs);
        this.names = Collections.unmodifiableMap(named);
    }

    /** The simulated device. */
    public DeviceKind kind() {
        return kind;
    }

    /** The plug ids, in device order (empty for a Linux host). */
    public List<String> plugs() {
        return List.copyOf(ports.keySet());
    }

    /**
     * The state of an outlet, interface or port: ON is an outlet on or a port enabled, OFF an outlet off or a
     * port disabled (shut down). Set it to change the device behind the CLI's back; commands queue their
     * changes on it after its {@link ScheduledPowerTarget#delay(Duration) delay}.
     *
     * @throws IllegalArgumentException if the device has no such plug
     */
    public ScheduledPowerTarget port(String plug) {
        ScheduledPowerTarget target = ports.get(plug);
        if (target == null) {
            throw new IllegalArgumentException(kind == DeviceKind.LINUX_HOST ? "a LINUX_HOST has no plugs"
                    : kind + " has no plug '" + plug + "'; its plugs are " + plugs().get(0) + " to "
                            + plugs().get(ports.size() - 1));
        }
        return target;
    }

    /**
     * Sets whether an enabled IOS interface has a link: {@code show interfaces status} shows it
     * {@code connected} with one (every interface at start) and {@code notconnect} without.
     *
     * @throws IllegalStateException if the device is not a CISCO_IOS switch
     * @throws IllegalArgumentException if it has no such interface
     */
    public void link(String plug, boolean up) {
        require(DeviceKind.CISCO_IOS, "link");
        port(plug);
        synchronized (linksDown) {
            if (up) {
                linksDown.remove(plug);
            } else {
                linksDown.add(plug);
            }
        }
    }

    /**
     * Sets the status word {@code show interfaces status} shows for an enabled IOS interface, in place of
     * {@code connected} or {@code notconnect}: {@code inactive} (its VLAN is gone), {@code sfpAbsent},
     * {@code suspended} (a port-channel member), or any other word a switch may print. A disabled interface still
     * shows {@code disabled}.
     *
     * @throws IllegalStateException if the device is not a CISCO_IOS switch
     * @throws IllegalArgumentException if it has no such interface, or the word is not one word
     */
    public void linkStatus(String plug, String word) {
        require(DeviceKind.CISCO_IOS, "linkStatus");
        port(plug);
        if (!Objects.requireNonNull(word, "word").matches("[A-Za-z-]{1,12}")) {
            throw new IllegalArgumentException("status word '" + word + "' must be 1 to 12 letters or '-'");
        }
        synchronized (statusWords) {
            statusWords.put(plug, word);
        }
    }

    /**
     * How many times the Linux host was rebooted through {@code /proc/sysrq-trigger}.
     *
     * @throws IllegalStateException if the device is not a LINUX_HOST
     */
    public synchronized int reboots() {
        require(DeviceKind.LINUX_HOST, "reboots");
        return reboots;
    }

    /**
     * The Linux host's boot id, as {@code /proc/sys/kernel/random/boot_id} shows it: a new one after every reboot.
     *
     * @throws IllegalStateException if the device is not a LINUX_HOST
     */
    public synchronized String bootId() {
        require(DeviceKind.LINUX_HOST, "bootId");
        return java.util.UUID.nameUUIDFromBytes(("remedy-simulated-boot:" + reboots)
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII)).toString();
    }

    /**
     * Whether the Linux host is up; it is down, refusing logins, for the reboot time after a sysrq reboot.
     *
     * @throws IllegalStateException if the device is not a LINUX_HOST
     */
    public boolean up() {
        require(DeviceKind.LINUX_HOST, "up");
        return acceptsLogins();
    }

    /**
     * How many times {@code systemctl restart kubelet} ran.
     *
     * @throws IllegalStateException if the device is not a LINUX_HOST
     */
    public synchronized int kubeletRestarts() {
        require(DeviceKind.LINUX_HOST, "kubeletRestarts");
        return kubeletRestarts;
    }

    /**
     * What {@code systemctl is-active kubelet} prints now: {@code active}, {@code inactive}, {@code failed}, or
     * {@code activating} while a restart takes the power delay.
     *
     * @throws IllegalStateException if the device is not a LINUX_HOST
     */
    public synchronized String kubeletState() {
        require(DeviceKind.LINUX_HOST, "kubeletState");
        if (kubeletStarting && nanoClock.getAsLong() - kubeletActiveAt >= 0) {
            kubeletStarting = false;
            kubelet = "active";
        }
        return kubeletStarting ? "activating" : kubelet;
    }

    /**
     * Sets the kubelet's state at once, ending any restart under way.
     *
     * @throws IllegalStateException if the device is not a LINUX_HOST
     * @throws IllegalArgumentException unless {@code active}, {@code inactive} or {@code failed}
     */
    public synchronized void kubeletState(String state) {
        require(DeviceKind.LINUX_HOST, "kubeletState");
        if (!KUBELET_STATES.contains(Objects.requireNonNull(state, "state"))) {
            throw new IllegalArgumentException("kubelet state '" + state + "' must be one of " + KUBELET_STATES);
        }
        kubelet = state;
        kubeletStarting = false;
    }

    /**
     * How long each OFF command kept the outlet or port commanded off before the next ON command, oldest first,
     * read on the simulator's {@link SshDeviceSpec#nanoClock() clock} (so a fake clock gives exact gaps).
     *
     * @throws IllegalArgumentException if the device has no such plug
     */
    public synchronized List<Duration> offTimes(String plug) {
        port(plug);
        return List.copyOf(offTimes.getOrDefault(plug, List.of()));
    }

    /**
     * Reloads the switch or PDU: every plug returns to its saved state, losing any change that was not saved
     * ({@code portdisable} on FOS, or an IOS {@code shutdown} without {@code write memory}). A plug never saved
     * is ON (enabled), as in a factory configuration.
     */
    public synchronized void reload() {
        ports.forEach((plug, target) -> target.power(saved.getOrDefault(plug, PowerState.ON)));
    }

    /** Records a command that switches {@code plug} to {@code state}, for {@link #offTimes(String)}. */
    synchronized void commanded(String plug, PowerState state) {
        long now = nanoClock.getAsLong();
        if (state == PowerState.OFF) {
            offCommandedAt.putIfAbsent(plug, now);
        } else {
            Long since = offCommandedAt.remove(plug);
            if (since != null) {
                offTimes.computeIfAbsent(plug, p -> new ArrayList<>()).add(Duration.ofNanos(now - since));
            }
        }
    }

    /** Saves {@code plug}'s state so that it survives a {@link #reload()}. */
    synchronized void save(String plug, PowerState state) {
        saved.put(plug, ScheduledPowerTarget.checked(state));
    }

    /** Saves every plug's current state (IOS {@code write memory}). */
    synchronized void saveAll() {
        ports.forEach((plug, target) -> saved.put(plug, target.planned()));
    }

    String name(String plug) {
        return names.get(plug);
    }

    String statusWord(String plug) {
        synchronized (statusWords) {
            return statusWords.get(plug);
        }
    }

    boolean linkUp(String plug) {
        synchronized (linksDown) {
            return !linksDown.contains(plug);
        }
    }

    Duration rebootTime() {
        return rebootTime;
    }

    synchronized boolean acceptsLogins() {
        if (down && nanoClock.getAsLong() - downUntil >= 0) {
            down = false;
        }
        return !down;
    }

    /** {@code systemctl restart kubelet} (counted) or {@code start} (not counted). */
    synchronized void startKubelet(boolean restart) {
        String state = kubeletState();
        if (restart) {
            kubeletRestarts++;
        } else if (state.equals("active") || state.equals("activating")) {
            return;
        }
        kubeletStarting = true;
        kubeletActiveAt = nanoClock.getAsLong() + powerDelay.toNanos();
    }

    synchronized void stopKubelet() {
        kubeletState("inactive");
    }

    /** {@code echo b > /proc/sysrq-trigger}: down for the reboot time, every session dropped, kubelet active after. */
    void reboot() {
        synchronized (this) {
            reboots++;
            down = true;
            downUntil = nanoClock.getAsLong() + rebootTime.toNanos();
            kubelet = "active";
            kubeletStarting = false;
        }
        dropSessions.run();
    }

    private void require(DeviceKind expected, String what) {
        if (kind != expected) {
            throw new IllegalStateException(what + " belongs to a " + expected + "; this device is a " + kind);
        }
    }

    @Override
    public String toString() {
        return "SimulatedDevice[" + kind + (kind == DeviceKind.LINUX_HOST ? "" : ", " + ports.size() + " plugs") + "]";
    }
}
