package dev.remedy.simulators.ipmi;

import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * How one simulated BMC is set up: its users, cipher suites, optional BMC key (Kg), session slots, timeouts,
 * GUID and initial power. Immutable; build with {@link #builder()}. {@link #toString()} shows no secret.
 */
public final class BmcSpec {

    /** The user name of {@link #ofDefaults()}. */
    public static final String DEFAULT_USER = "admin";
    /** The password of {@link #ofDefaults()}: long enough for secret-leak checks, short enough for IPMI. */
    public static final String DEFAULT_PASSWORD = "remedy-secret";
    /** Cipher suites enabled unless told otherwise: 3 (SHA-1, AES) and 17 (SHA-256, AES). */
    public static final List<Integer> DEFAULT_CIPHER_SUITES = List.of(3, 17);
    /** Session slots unless told otherwise; real BMCs have few. */
    public static final int DEFAULT_MAX_SESSIONS = 4;
    /** An active session idle this long is dropped (IPMI's usual 60 s). */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** A session still in its RAKP handshake this long is dropped and frees its slot. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);
    /** The longest BMC key (Kg) IPMI v2.0 allows, in bytes. */
    public static final int MAX_BMC_KEY_BYTES = 20;
    /** The most session slots a spec may ask for. */
    public static final int MAX_SESSIONS_LIMIT = 64;

    private final List<BmcUser> users;
    private final List<Integer> cipherSuites;
    private final byte[] bmcKey;
    private final int maxSessions;
    private final Duration idleTimeout;
    private final Duration handshakeTimeout;
    private final byte[] guid;
    private final PowerState initialPower;
    private final boolean silentOnUnknownUser;
    private final Integer forcedSuite;
    private final boolean silentOnCipherSuitesQuery;
    private final boolean silentOnRakp3;

    private BmcSpec(Builder builder) {
        this.users = List.copyOf(builder.users);
        this.cipherSuites = List.copyOf(builder.cipherSuites);
        this.bmcKey = builder.bmcKey == null ? null : builder.bmcKey.clone();
        this.maxSessions = builder.maxSessions;
        this.idleTimeout = builder.idleTimeout;
        this.handshakeTimeout = builder.handshakeTimeout;
        this.guid = builder.guid == null ? null : builder.guid.clone();
        this.initialPower = builder.initialPower;
        this.silentOnUnknownUser = builder.silentOnUnknownUser;
        this.forcedSuite = builder.forcedSuite;
        this.silentOnCipherSuitesQuery = builder.silentOnCipherSuitesQuery;
        this.silentOnRakp3 = builder.silentOnRakp3;
    }

    /** A builder with no users yet and every other setting at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** One administrator {@value #DEFAULT_USER} / {@value #DEFAULT_PASSWORD}, everything else by default. */
    public static BmcSpec ofDefaults() {
        return builder().user(DEFAULT_USER, DEFAULT_PASSWORD).build();
    }

    /** The user accounts, in the order added. */
    public List<BmcUser> users() {
        return users;
    }

    /** The enabled cipher suite ids, in the order listed (also the order Get Channel Cipher Suites reports). */
    public List<Integer> cipherSuites() {
        return cipherSuites;
    }

    /** The BMC key Kg, if set (two-key logins); a copy. */
    public Optional<byte[]> bmcKey() {
        return Optional.ofNullable(bmcKey).map(byte[]::clone);
    }

    /** How many sessions (in handshake or active) the BMC holds at once. */
    public int maxSessions() {
        return maxSessions;
    }

    /** How long an active session may stay idle before the BMC drops it. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** How long a session may stay in its RAKP handshake before the BMC drops it. */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /** The BMC GUID, if fixed; otherwise each BMC gets a random one. A copy. */
    public Optional<byte[]> guid() {
        return Optional.ofNullable(guid).map(byte[]::clone);
    }

    /** The power state a new BMC starts in. */
    public PowerState initialPower() {
        return initialPower;
    }

    /**
     * Whether RAKP 1 naming an unknown user goes unanswered (as on BMCs that stay silent) instead of being
     * answered with status 0x0d (unauthorized name).
     */
    public boolean silentOnUnknownUser() {
        return silentOnUnknownUser;
    }

    /**
     * The suite whose algorithms every Open Session is answered with, whatever the console proposed, if set
     * (as some BMC emulators and older BMCs do).
     */
    public OptionalInt forcedSuite() {
        return forcedSuite == null ? OptionalInt.empty() : OptionalInt.of(forcedSuite);
    }

    /** Whether Get Channel Cipher Suites goes unanswered, as on Debian's ipmi_sim. */
    public boolean silentOnCipherSuitesQuery() {
        return silentOnCipherSuitesQuery;
    }

    /** Whether RAKP 3 goes unanswered, as on BMCs that ignore a failed key exchange code or privilege check. */
    public boolean silentOnRakp3() {
        return silentOnRakp3;
    }

    /** The user called {@code name}, if any. */
    Optional<BmcUser> user(byte[] name, int offset, int length) {
        for (BmcUser user : users) {
            byte[] candidate = user.nameBytes();
            if (Arrays.equals(candidate, 0, candidate.length, name, offset, offset + length)) {
                return Optional.of(user);
            }
        }
        return Optional.empty();
    }

    /** The raw Kg without copying, or null. */
    byte[] bmcKeyOrNull() {
        return bmcKey;
    }

    @Override
    public String toString() {
        return "BmcSpec[users=" + users + ", cipherSuites=" + cipherSuites + ", bmcKey="
                + (bmcKey == null ? "none" : "****") + ", maxSessions=" + maxSessions + ", idleTimeout="
                + idleTimeout + ", handshakeTimeout=" + handshakeTimeout + ", initialPower=" + initialPower
                + (silentOnUnknownUser ? ", silentOnUnknownUser" : "")
                + (forcedSuite == null ? "" : ", forcedSuite=" + forcedSuite)
                + (silentOnCipherSuitesQuery ? ", silentOnCipherSuitesQuery" : "")
                + (silentOnRakp3 ? ", silentOnRakp3" : "") + "]";
    }

    /** Collects the settings of a {@link BmcSpec}; every setter validates at once and names the property. */
    public static final class Builder {

        private final List<BmcUser> users = new ArrayList<>();
        private List<Integer> cipherSuites = DEFAULT_CIPHER_SUITES;
        private byte[] bmcKey;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
        private byte[] guid;
        private PowerState initialPower = PowerState.ON;
        private boolean silentOnUnknownUser;
        private Integer forcedSuite;
        private boolean silentOnCipherSuitesQuery;
        private boolean silentOnRakp3;

        private Builder() {
        }

        /** Adds an administrator account. */
        public Builder user(String name, String password) {
            return user(name, password, Privilege.ADMINISTRATOR);
        }

        /**
         * Adds an account whose sessions may reach at most {@code maxPrivilege}.
         *
         * @throws IllegalArgumentException if the name is taken or the name or password break IPMI's limits
         */
        public Builder user(String name, String password, Privilege maxPrivilege) {
            BmcUser user = new BmcUser(name, password, maxPrivilege);
            for (BmcUser existing : users) {
                if (existing.name().equals(name)) {
                    throw new IllegalArgumentException("users: '" + name + "' is already defined; user names must "
                            + "be unique on one BMC");
                }
            }
            users.add(user);
            return this;
        }

        /**
         * Enables exactly these cipher suites, in this order.
         *
         * @throws IllegalArgumentException if none is given or one is a suite the simulator does not speak
         */
        public Builder cipherSuites(int... ids) {
            this.cipherSuites = suites(ids);
            return this;
        }

        /**
         * Sets the BMC key Kg (up to 20 bytes; null, empty or all zero means none), which then keys the session
         * integrity key instead of the user's password.
         *
         * @throws IllegalArgumentException if longer than 20 bytes
         */
        public Builder bmcKey(byte[] key) {
            if (key == null || key.length == 0 || allZero(key)) {
                this.bmcKey = null;
                return this;
            }
            if (key.length > MAX_BMC_KEY_BYTES) {
                throw new IllegalArgumentException("bmcKey: " + key.length + " bytes is longer than the "
                        + MAX_BMC_KEY_BYTES + " IPMI allows");
            }
            this.bmcKey = Arrays.copyOf(key, MAX_BMC_KEY_BYTES);
            return this;
        }

        /**
         * Sets the BMC key Kg from hexadecimal digits (as {@code ipmitool -y} takes it).
         *
         * @throws IllegalArgumentException if not an even number of hex digits, or longer than 20 bytes
         */
        public Builder bmcKeyHex(String hex) {
            if (hex == null) {
                return bmcKey(null);
            }
            String digits = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
            try {
                return bmcKey(HexFormat.of().parseHex(digits));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bmcKeyHex: '" + hex + "' is not an even number of hexadecimal "
                        + "digits", e);
            }
        }

        /**
         * Sets how many sessions (in handshake or active) the BMC holds at once; an Open Session beyond it is
         * answered with status 0x01 (insufficient resources).
         *
         * @throws IllegalArgumentException unless 1 to {@value #MAX_SESSIONS_LIMIT}
         */
        public Builder maxSessions(int slots) {
            if (slots < 1 || slots > MAX_SESSIONS_LIMIT) {
                throw new IllegalArgumentException("maxSessions: " + slots + " is outside 1.." + MAX_SESSIONS_LIMIT);
            }
            this.maxSessions = slots;
            return this;
        }

        /**
         * Sets how long an active session may stay idle.
         *
         * @throws IllegalArgumentException unless positive
         */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = positive(timeout, "idleTimeout");
            return this;
        }

        /**
         * Sets how long a session may stay in its RAKP handshake.
         *
         * @throws IllegalArgumentException unless positive
         */
        public Builder handshakeTimeout(Duration timeout) {
            this.handshakeTimeout = positive(timeout, "handshakeTimeout");
            return this;
        }

        /**
         * Fixes the BMC GUID (16 bytes, as sent in RAKP 2); null means a random GUID per BMC.
         *
         * @throws IllegalArgumentException unless null or 16 bytes
         */
        public Builder guid(byte[] bytes) {
            if (bytes != null && bytes.length != 16) {
                throw new IllegalArgumentException("guid: " + bytes.length + " bytes given, a GUID has 16");
            }
            this.guid = bytes == null ? null : bytes.clone();
            return this;
        }

        /**
         * Sets the power state a new BMC starts in.
         *
         * @throws IllegalArgumentException unless ON or OFF
         */
        public Builder initialPower(PowerState power) {
            if (power != PowerState.ON && power != PowerState.OFF) {
                throw new IllegalArgumentException("initialPower: " + power + " is not a state a machine can be in; "
                        + "use ON or OFF");
            }
            this.initialPower = power;
            return this;
        }

        /**
         * Makes the BMC drop RAKP 1 for a user name it does not know, without an answer, as some BMCs do; the
         * half-open session then ends at the handshake timeout. By default it answers with status 0x0d
         * (unauthorized name), as the specification asks.
         */
        public Builder silentOnUnknownUser(boolean silent) {
            this.silentOnUnknownUser = silent;
            return this;
        }

        /**
         * Makes the BMC answer every well-formed Open Session with status OK and the algorithms of suite {@code id},
         * whatever the console proposed, and run the session with that suite, as some BMC emulators and older
         * BMCs do (suite 3's algorithms in reply to a proposal of suite 17). By default it answers with the
         * proposed suite if enabled, else with status 0x11 (no matching cipher suite).
         *
         * @throws IllegalArgumentException if the simulator does not speak suite {@code id}
         */
        public Builder forcedSuite(int id) {
            if (!CipherSuite.IDS.contains(id)) {
                throw new IllegalArgumentException("forcedSuite: the simulator does not speak suite " + id
                        + "; choose from " + sortedIds());
            }
            this.forcedSuite = id;
            return this;
        }

        /**
         * Makes the BMC leave Get Channel Cipher Suites unanswered, as Debian's ipmi_sim does. By default it lists
         * its {@link #cipherSuites(int...)}.
         */
        public Builder silentOnCipherSuitesQuery(boolean silent) {
            this.silentOnCipherSuitesQuery = silent;
            return this;
        }

        /**
         * Makes the BMC leave every RAKP 3 unanswered, after answering RAKP 1 with RAKP 2, as many BMCs do when the
         * console's key exchange code is wrong (a wrong password) or the user lacks the requested privilege; the
         * half-open session then ends at the handshake timeout. By default it answers with RAKP 4.
         */
        public Builder silentOnRakp3(boolean silent) {
            this.silentOnRakp3 = silent;
            return this;
        }

        /**
         * The spec.
         *
         * @throws IllegalStateException if no user was added
         */
        public BmcSpec build() {
            if (users.isEmpty()) {
                throw new IllegalStateException("users: a BMC needs at least one user; call user(name, password)");
            }
            return new BmcSpec(this);
        }

        private static Duration positive(Duration value, String property) {
            Objects.requireNonNull(value, property);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(property + ": " + value + " must be positive");
            }
            return value;
        }

        private static boolean allZero(byte[] key) {
            for (byte b : key) {
                if (b != 0) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The cipher suites {@code ids}, in this order, without repeats.
         *
         * @throws IllegalArgumentException if none is given or one is a suite the simulator does not speak
         */
        static List<Integer> suites(int... ids) {
            Objects.requireNonNull(ids, "ids");
            if (ids.length == 0) {
                throw new IllegalArgumentException("cipherSuites: enable at least one of " + sortedIds());
            }
            Set<Integer> chosen = new LinkedHashSet<>();
            for (int id : ids) {
                if (!CipherSuite.IDS.contains(id)) {
                    throw new IllegalArgumentException("cipherSuites: the simulator does not speak suite " + id + "; choose from "
                            + sortedIds());
                }
                chosen.add(id);
            }
            return List.copyOf(chosen);
        }

        private static List<Integer> sortedIds() {
            return CipherSuite.IDS.stream().sorted().toList();
        }
    }
}
