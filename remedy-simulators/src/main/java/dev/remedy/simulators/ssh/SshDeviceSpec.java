package dev.remedy.simulators.ssh;

import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

/**
 * How an {@link SshDeviceSimulator} is set up: the device, its accounts and authorized keys, its ports and their
 * names, paging, confirmations, the host key type, the power and reboot delays and the clock. Immutable; build
 * with {@link #builder()}. {@link #toString()} shows no password.
 */
public final class SshDeviceSpec {

    /** The user name when the builder adds none. */
    public static final String DEFAULT_USER = "apc";
    /** The password of {@link #DEFAULT_USER}. */
    public static final String DEFAULT_PASSWORD = "apc-secret";
    /** Outlets, interfaces or ports unless told otherwise. */
    public static final int DEFAULT_PORTS = 8;
    /** The most outlets, interfaces or ports a spec may ask for. */
    public static final int MAX_PORTS = 256;
    /** The IOS page length unless told otherwise (the other devices do not page unless told to). */
    public static final int DEFAULT_IOS_PAGE_LENGTH = 24;
    /** How long an APC outlet stays off during {@code olReboot} unless told otherwise. */
    public static final Duration DEFAULT_APC_REBOOT_TIME = Duration.ofSeconds(5);
    /** How long a Linux host stays down after a sysrq reboot unless told otherwise. */
    public static final Duration DEFAULT_LINUX_REBOOT_TIME = Duration.ofSeconds(2);
    /** The longest port name (IOS shows at most 18 characters of it). */
    public static final int MAX_NAME_LENGTH = 32;

    private final DeviceKind device;
    private final Map<String, String> users;
    private final List<PublicKey> authorizedKeys;
    private final int ports;
    private final Map<String, String> portNames;
    private final boolean confirmations;
    private final int pageLength;
    private final HostKeyType hostKeyType;
    private final Optional<HostKeyType> secondHostKeyType;
    private final Duration powerDelay;
    private final Duration rebootTime;
    private final LongSupplier nanoClock;
    private final Function<SimulatedDevice, DeviceCli> cli;
    private final boolean legacyAlgorithms;
    private final int portsPerSlot;
    private final Optional<Integer> virtualFabric;
    private final Optional<String> enableSecret;

    private SshDeviceSpec(Builder builder, Map<String, String> portNames, int pageLength, Duration rebootTime) {
        this.device = builder.device;
        this.users = Collections.unmodifiableMap(builder.users.isEmpty()
                ? new LinkedHashMap<>(Map.of(DEFAULT_USER, DEFAULT_PASSWORD)) : new LinkedHashMap<>(builder.users));
        this.authorizedKeys = List.copyOf(builder.authorizedKeys);
        this.ports = builder.ports;
        this.portNames = portNames;
        this.confirmations = builder.confirmations;
        this.pageLength = pageLength;
        this.hostKeyType = builder.hostKeyType;
        this.secondHostKeyType = Optional.ofNullable(builder.secondHostKeyType);
        this.powerDelay = builder.powerDelay;
        this.rebootTime = rebootTime;
        this.nanoClock = builder.nanoClock;
        this.cli = builder.cli;
        this.legacyAlgorithms = builder.legacyAlgorithms;
        this.portsPerSlot = builder.portsPerSlot;
        this.virtualFabric = Optional.ofNullable(builder.virtualFabric);
        this.enableSecret = Optional.ofNullable(builder.enableSecret);
    }

    /** A builder with every setting at its default: an 8-outlet APC PDU, user {@value #DEFAULT_USER}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The simulated device. */
    public DeviceKind device() {
        return device;
    }

    /** The accounts, name to password, in the order added ({@value #DEFAULT_USER} alone if none was added). */
    public Map<String, String> users() {
        return users;
    }

    /** The public keys any account may log in with. */
    public List<PublicKey> authorizedKeys() {
        return authorizedKeys;
    }

    /** How many outlets, interfaces or ports the device has (ignored by a Linux host). */
    public int ports() {
        return ports;
    }

    /** Port names by plug id (see {@link SimulatedDevice#plugs()}); unnamed plugs keep their default name. */
    public Map<String, String> portNames() {
        return portNames;
    }

    /**
     * Whether the APC asks {@code Enter 'YES' to continue} before switching an outlet, or the IOS switch asks
     * {@code Overwrite the previous NVRAM configuration?[confirm]} before {@code write memory} saves.
     */
    public boolean confirmations() {
        return confirmations;
    }

    /** Listing lines shown before {@code --More--} (0: no paging). */
    public int pageLength() {
        return pageLength;
    }

    /** The host key type. */
    public HostKeyType hostKeyType() {
        return hostKeyType;
    }

    /** The type of the device's second host key, if it has one ({@link Builder#secondHostKey}). */
    public Optional<HostKeyType> secondHostKeyType() {
        return secondHostKeyType;
    }

    /** How long a commanded state change (outlet, port, kubelet restart) takes. */
    public Duration powerDelay() {
        return powerDelay;
    }

    /** How long an APC outlet stays off during {@code olReboot}, or a Linux host stays down after a reboot. */
    public Duration rebootTime() {
        return rebootTime;
    }

    /** The monotonic nanosecond clock state changes are timed on. */
    public LongSupplier nanoClock() {
        return nanoClock;
    }

    /** Whether the device offers only old SSH algorithms ({@link Builder#legacyAlgorithms}). */
    public boolean legacyAlgorithms() {
        return legacyAlgorithms;
    }

    /** How many ports each blade of a Brocade director has (0: a switch with ports numbered 0 to N-1). */
    public int portsPerSlot() {
        return portsPerSlot;
    }

    /** The Virtual Fabric id a Brocade switch shows in its prompt ({@code sw:FID128:admin>}), if any. */
    public Optional<Integer> virtualFabric() {
        return virtualFabric;
    }

    /** The secret of {@code enable} on an IOS switch that logs in at user exec ({@link Builder#enableSecret}). */
    public Optional<String> enableSecret() {
        return enableSecret;
    }

    /** The plug id at {@code index} (0-based): a director's ports are {@code slot/port}, slots from 1. */
    String plug(int index) {
        return portsPerSlot > 0 ? (1 + index / portsPerSlot) + "/" + (index % portsPerSlot) : device.plug(index);
    }

    /** A new session's command line for {@code device}: the built-in one of its kind, or the spec's own. */
    DeviceCli cli(SimulatedDevice device) {
        if (cli != null) {
            return cli.apply(device);
        }
        return switch (device.kind()) {
            case APC_PDU -> new ApcCli(device, confirmations, pageLength);
            case CISCO_IOS -> new IosCli(device, pageLength, confirmations, enableSecret.orElse(null));
            case BROCADE_FOS -> new BrocadeCli(device, virtualFabric.map(fid -> BrocadeCli.HOST + ":FID" + fid + ":admin> ")
                    .orElse(BrocadeCli.PROMPT));
            case LINUX_HOST -> new LinuxHostCli(device);
        };
    }

    @Override
    public String toString() {
        return "SshDeviceSpec[" + device + ", users=" + users.keySet() + ", keys=" + authorizedKeys.size()
                + ", ports=" + ports + ", pageLength=" + pageLength + ", confirmations=" + confirmations
                + (enableSecret.isPresent() ? ", enable secret" : "")
                + ", hostKey=" + hostKeyType + ", powerDelay=" + powerDelay + ", rebootTime=" + rebootTime + "]";
    }

    /** Builds an {@link SshDeviceSpec}; setters check their own argument, {@link #build()} the whole. */
    public static final class Builder {

        private DeviceKind device = DeviceKind.APC_PDU;
        private final Map<String, String> users = new LinkedHashMap<>();
        private final List<PublicKey> authorizedKeys = new ArrayList<>();
        private int ports = DEFAULT_PORTS;
        private Map<String, String> portNames = Map.of();
        private boolean confirmations;
        private Integer pageLength;
        private HostKeyType hostKeyType = HostKeyType.ED25519;
        private HostKeyType secondHostKeyType;
        private Duration powerDelay = Duration.ZERO;
        private int portsPerSlot;
        private Integer virtualFabric;
        private Duration rebootTime;
        private LongSupplier nanoClock = System::nanoTime;
        private Function<SimulatedDevice, DeviceCli> cli;
        private boolean legacyAlgorithms;
        private String enableSecret;

        private Builder() {
        }

        /** Sets the device ({@link DeviceKind#APC_PDU} unless told otherwise). */
        public Builder device(DeviceKind kind) {
            this.device = Objects.requireNonNull(kind, "device");
            return this;
        }

        /**
         * Adds an account that logs in with this password (or an {@link #authorizedKey(PublicKey)}).
         *
         * @throws IllegalArgumentException if the name is blank or holds blanks, the password is empty, or the
         *     name is already taken
         */
        public Builder user(String name, String password) {
            Objects.requireNonNull(name, "user name");
            Objects.requireNonNull(password, "password");
            if (name.isEmpty() || !name.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
                throw new IllegalArgumentException("user name '" + name + "' must be printable ASCII without blanks");
            }
            if (password.isEmpty()) {
                throw new IllegalArgumentException("user '" + name + "' needs a non-empty password");
            }
            if (users.putIfAbsent(name, password) != null) {
                throw new IllegalArgumentException("user '" + name + "' is added twice; give each account its "
                        + "own name");
            }
            return this;
        }

        /**
         * Adds a public key that logs in as any account.
         *
         * @throws IllegalArgumentException if SSH has no encoding for the key
         */
        public Builder authorizedKey(PublicKey key) {
            Objects.requireNonNull(key, "authorizedKey");
            PublicKeyEntry.toString(key); // throws IllegalArgumentException for a key SSH cannot encode
            authorizedKeys.add(key);
            return this;
        }

        /**
         * Sets how many outlets, interfaces or ports the device has ({@value #DEFAULT_PORTS} unless told
         * otherwise; a Linux host has none and ignores it).
         *
         * @throws IllegalArgumentException if not 1 to {@value #MAX_PORTS}
         */
        public Builder ports(int count) {
            if (count < 1 || count > MAX_PORTS) {
                throw new IllegalArgumentException("ports " + count + " must be 1 to " + MAX_PORTS);
            }
            this.ports = count;
            return this;
        }

        /**
         * Names ports, replacing earlier names: keys are plug ids ({@code "3"} is APC outlet 3 or Brocade port 3;
         * IOS takes {@code "GigabitEthernet1/0/3"} or just {@code "3"}). Checked against the device and the
         * port count by {@link #build()}.
         */
        public Builder portNames(Map<String, String> names) {
            this.portNames = Map.copyOf(names);
            return this;
        }

        /**
         * Makes the APC ask {@code Enter 'YES' to continue or <ENTER> to cancel : } before olOn/olOff/olReboot, and
         * the IOS switch ask {@code Overwrite the previous NVRAM configuration?[confirm]} before {@code write memory}
         * saves: only a bare Enter confirms it, any other answer cancels the save.
         */
        public Builder confirmations(boolean enabled) {
            this.confirmations = enabled;
            return this;
        }

        /**
         * Sets the listing lines shown before {@code --More--} (APC {@code olStatus all}, IOS
         * {@code show interfaces status}); 0 turns paging off. {@value #DEFAULT_IOS_PAGE_LENGTH} for IOS and 0
         * for the others unless told otherwise.
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder pageLength(int lines) {
            if (lines < 0) {
                throw new IllegalArgumentException("pageLength " + lines + " must not be negative (0: no paging)");
            }
            this.pageLength = lines;
            return this;
        }

        /** Sets the host key type ({@link HostKeyType#ED25519} unless told otherwise). */
        public Builder hostKeyType(HostKeyType type) {
            this.hostKeyType = Objects.requireNonNull(type, "hostKeyType");
            return this;
        }

        /**
         * Gives the device a second host key, of another type than {@link #hostKeyType}, as an OpenSSH server has one
         * per type: a client gets the one its preferred host key algorithm names (none unless told otherwise).
         */
        public Builder secondHostKey(HostKeyType type) {
            this.secondHostKeyType = Objects.requireNonNull(type, "secondHostKey");
            return this;
        }

        /**
         * Sets how long a commanded state change takes: outlets, ports and kubelet restarts (0 unless told
         * otherwise). Each port's {@link dev.remedy.simulators.ScheduledPowerTarget#delay(Duration)} can change it
         * later.
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder powerDelay(Duration delay) {
            this.powerDelay = nonNegative("powerDelay", delay);
            return this;
        }

        /**
         * Sets how long an APC outlet stays off during {@code olReboot} (default 5 s) or a Linux host stays down
         * after {@code echo b > /proc/sysrq-trigger} (default 2 s).
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder rebootTime(Duration time) {
            this.rebootTime = nonNegative("rebootTime", time);
            return this;
        }

        /**
         * Sets the monotonic nanosecond clock that times state changes and reboots ({@link System#nanoTime()}
         * unless told otherwise). Banner and reply delays ({@link SshFaults}) always take real time.
         */
        public Builder nanoClock(LongSupplier clock) {
            this.nanoClock = Objects.requireNonNull(clock, "nanoClock");
            return this;
        }

        /**
         * Makes the device offer only the old algorithms of older PDU and switch firmware
         * (diffie-hellman-group14-sha1, {@code ssh-rsa} host key signatures, aes128-cbc, hmac-sha1); its host key is
         * then RSA.
         */
        public Builder legacyAlgorithms(boolean enabled) {
            this.legacyAlgorithms = enabled;
            if (enabled) {
                this.hostKeyType = HostKeyType.RSA;
            }
            return this;
        }

        /**
         * Replaces the device's command line with your own, for a device the simulator does not know (to try a device
         * profile against it, say). Each session gets a new CLI from {@code factory}; the device's state (its plugs,
         * numbered as the kind numbers them) is shared, and the terminal (echo, line ends, faults) stays the
         * simulator's.
         */
        public Builder cli(Function<SimulatedDevice, DeviceCli> factory) {
            this.cli = Objects.requireNonNull(factory, "cli");
            return this;
        }

        /**
         * Makes an IOS switch log its users in at user exec ({@code remedy-sw1>}): {@code configure terminal} then
         * needs privileged exec, which {@code enable} gives after {@code Password: } is answered with {@code secret}
         * (none unless told otherwise: logins land in privileged exec).
         *
         * @throws IllegalArgumentException if the secret is empty or not printable ASCII
         */
        public Builder enableSecret(String secret) {
            Objects.requireNonNull(secret, "enableSecret");
            if (secret.isEmpty() || !secret.chars().allMatch(c -> c >= ' ' && c < 0x7f)) {
                throw new IllegalArgumentException("enableSecret must be non-empty printable ASCII");
            }
            this.enableSecret = secret;
            return this;
        }

        /**
         * Makes a Brocade FOS switch a director: its ports are {@code slot/port} ({@code 1/0} to {@code 1/N-1} on the
         * first blade, then {@code 2/0}...), as {@code portshow} and {@code portcfgpersistentdisable} take them (0
         * unless told otherwise: a switch with ports {@code 0} to {@code N-1}).
         *
         * @throws IllegalArgumentException if not 1 to 64
         */
        public Builder portsPerSlot(int count) {
            if (count < 1 || count > 64) {
                throw new IllegalArgumentException("portsPerSlot " + count + " must be 1 to 64");
            }
            this.portsPerSlot = count;
            return this;
        }

        /**
         * Puts a Brocade FOS switch in Virtual Fabric mode: its prompt names the logical switch's fabric id,
         * {@code remedy-fc1:FID128:admin> } (none unless told otherwise).
         *
         * @throws IllegalArgumentException if not 1 to 128
         */
        public Builder virtualFabric(int fid) {
            if (fid < 1 || fid > 128) {
                throw new IllegalArgumentException("virtualFabric " + fid + " must be a fabric id, 1 to 128");
            }
            this.virtualFabric = fid;
            return this;
        }

        /**
         * Builds the spec.
         *
         * @throws IllegalArgumentException if a setting does not fit the device: confirmations on a device other
         *     than the APC or the IOS switch, an enable secret on a device other than the IOS switch, paging on a
         *     Brocade or a Linux host, port names on a Linux host or for a plug the device does not have, or a port
         *     name that is not 1 to {@value #MAX_NAME_LENGTH} printable ASCII characters without leading or trailing
         *     blanks, or a second host key of the first one's type or with legacy algorithms, or portsPerSlot or
         *     virtualFabric on a device other than the Brocade
         */
        public SshDeviceSpec build() {
            if ((portsPerSlot > 0 || virtualFabric != null) && device != DeviceKind.BROCADE_FOS) {
                throw new IllegalArgumentException("portsPerSlot and virtualFabric are BROCADE_FOS features; " + device
                        + " has neither");
            }
            if (secondHostKeyType == hostKeyType) {
                throw new IllegalArgumentException("secondHostKey " + secondHostKeyType + " is the type of the first "
                        + "host key; a device has one key per type");
            }
            if (secondHostKeyType != null && legacyAlgorithms) {
                throw new IllegalArgumentException("secondHostKey: a device with legacyAlgorithms signs with ssh-rsa "
                        + "only, so it has one host key");
            }
            if (confirmations && device != DeviceKind.APC_PDU && device != DeviceKind.CISCO_IOS) {
                throw new IllegalArgumentException("confirmations are an APC_PDU and CISCO_IOS feature; " + device
                        + " never asks for one");
            }
            if (enableSecret != null && device != DeviceKind.CISCO_IOS) {
                throw new IllegalArgumentException("enableSecret is a CISCO_IOS feature; " + device
                        + " has no enable mode");
            }
            boolean pages = device == DeviceKind.APC_PDU || device == DeviceKind.CISCO_IOS;
            if (!pages && pageLength != null && pageLength > 0) {
                throw new IllegalArgumentException("pageLength " + pageLength + ": " + device + " never pages; "
                        + "only APC_PDU and CISCO_IOS listings do");
            }
            if (device == DeviceKind.LINUX_HOST && !portNames.isEmpty()) {
                throw new IllegalArgumentException("portNames: a LINUX_HOST has no ports to name");
            }
            Map<String, String> names = new LinkedHashMap<>();
            portNames.forEach((key, name) -> {
                if (names.put(plugFor(key), checkedName(key, name)) != null) {
                    throw new IllegalArgumentException("portNames: plug '" + plugFor(key) + "' is named twice");
                }
            });
            int lines = pageLength != null ? pageLength : device == DeviceKind.CISCO_IOS ? DEFAULT_IOS_PAGE_LENGTH : 0;
            Duration reboot = rebootTime != null ? rebootTime
                    : device == DeviceKind.LINUX_HOST ? DEFAULT_LINUX_REBOOT_TIME : DEFAULT_APC_REBOOT_TIME;
            return new SshDeviceSpec(this, Collections.unmodifiableMap(names), lines, reboot);
        }

        private String plugFor(String key) {
            for (int i = 0; i < ports; i++) {
                String plug = portsPerSlot > 0 ? (1 + i / portsPerSlot) + "/" + (i % portsPerSlot) : device.plug(i);
                if (plug.equals(key)
                        || device == DeviceKind.CISCO_IOS && Integer.toString(device.number(i)).equals(key)) {
                    return plug;
                }
            }
            throw new IllegalArgumentException("portNames: " + device + " with " + ports + " ports has no plug '"
                    + key + "'; plugs are " + device.plug(0) + " to " + device.plug(ports - 1));
        }

        private static String checkedName(String key, String name) {
            if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || !name.equals(name.strip())
                    || !name.chars().allMatch(c -> c >= ' ' && c < 0x7f)) {
                throw new IllegalArgumentException("portNames: the name '" + name + "' of plug '" + key + "' must "
                        + "be 1 to " + MAX_NAME_LENGTH + " printable ASCII characters without leading or trailing "
                        + "blanks");
            }
            return name;
        }

        private static Duration nonNegative(String what, Duration value) {
            Objects.requireNonNull(value, what);
            if (value.isNegative()) {
                throw new IllegalArgumentException(what + " " + value + " must not be negative");
            }
            return value;
        }
    }
}
