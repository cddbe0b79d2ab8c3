package dev.remedy.simulators.redfish;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.spi.PowerState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * How a {@link RedfishSimulator} is set up: accounts, computer systems, rack PDUs, the session limit, TLS, the
 * server's worker threads, the initial power and the clock. Immutable; build with {@link #builder()} or take
 * {@link #ofDefaults()}. {@link #toString()} shows no password.
 */
public final class RedfishSpec {

    /** The user name of {@link #ofDefaults()}. */
    public static final String DEFAULT_USER = "admin";
    /** The password of {@link #ofDefaults()}. */
    public static final String DEFAULT_PASSWORD = "redfish-secret";
    /** The system id of {@link #ofDefaults()}, and the prefix of {@link Builder#systemCount(int)} ids. */
    public static final String DEFAULT_SYSTEM = "node-1";
    /** Sessions the SessionService holds at once unless told otherwise (real BMCs allow a handful to a few dozen). */
    public static final int DEFAULT_MAX_SESSIONS = 16;
    /** The most sessions a spec may ask for. */
    public static final int MAX_SESSIONS_LIMIT = 100_000;
    /** HTTP worker threads unless told otherwise. */
    public static final int DEFAULT_THREADS = 4;
    /** The most worker threads a spec may ask for. */
    public static final int MAX_THREADS = 256;
    /** Requests kept in the request log unless told otherwise (the oldest are dropped first). */
    public static final int DEFAULT_REQUEST_LOG_LIMIT = 10_000;

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._~-]*");

    private final List<RedfishUser> users;
    private final List<String> systems;
    private final List<RedfishPdu> pdus;
    private final int maxSessions;
    private final boolean tls;
    private final boolean subjectAltNames;
    private final int threads;
    private final int requestLogLimit;
    private final PowerState initialPower;
    private final LongSupplier nanoClock;

    private RedfishSpec(Builder builder) {
        this.users = List.copyOf(builder.users);
        this.systems = List.copyOf(builder.systems);
        this.pdus = List.copyOf(builder.pdus);
        this.maxSessions = builder.maxSessions;
        this.tls = builder.tls;
        this.subjectAltNames = builder.subjectAltNames;
        this.threads = builder.threads;
        this.requestLogLimit = builder.requestLogLimit;
        this.initialPower = builder.initialPower;
        this.nanoClock = builder.nanoClock;
    }

    /** A builder with no accounts, no systems, no PDUs and every other setting at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** One account {@value #DEFAULT_USER} / {@value #DEFAULT_PASSWORD} and one system {@value #DEFAULT_SYSTEM}. */
    public static RedfishSpec ofDefaults() {
        return builder().user(DEFAULT_USER, DEFAULT_PASSWORD).systems(DEFAULT_SYSTEM).build();
    }

    /** The accounts, in the order added. */
    public List<RedfishUser> users() {
        return users;
    }

    /** The ComputerSystem ids, in collection order. */
    public List<String> systems() {
        return systems;
    }

    /** The rack PDUs, in collection order. */
    public List<RedfishPdu> pdus() {
        return pdus;
    }

    /** How many sessions the SessionService holds at once. */
    public int maxSessions() {
        return maxSessions;
    }

    /** Whether the simulator serves HTTPS with a self-signed certificate generated at start. */
    public boolean tls() {
        return tls;
    }

    /**
     * Whether the TLS certificate names {@code 127.0.0.1} and {@code localhost} as subject alternative names
     * ({@code true}, the default), or has only a common name, as many BMCs' self-signed certificates do.
     */
    public boolean subjectAltNames() {
        return subjectAltNames;
    }

    /** HTTP worker threads. */
    public int threads() {
        return threads;
    }

    /** How many of the latest requests the request log keeps. */
    public int requestLogLimit() {
        return requestLogLimit;
    }

    /** The power state every system and outlet starts in. */
    public PowerState initialPower() {
        return initialPower;
    }

    /** The monotonic nanosecond clock that times power changes and tasks. */
    public LongSupplier nanoClock() {
        return nanoClock;
    }

    static void checkSegment(String what, String value) {
        if (!SEGMENT.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " '" + value + "' must be a plain URI segment: letters, "
                    + "digits and . _ ~ - , starting with a letter or digit");
        }
    }

    @Override
    public String toString() {
        return "RedfishSpec[users=" + users.stream().map(RedfishUser::name).toList() + ", systems="
                + (systems.size() > 5 ? systems.size() + " systems" : systems) + ", pdus=" + pdus
                + ", maxSessions=" + maxSessions + ", tls=" + tls + ", threads=" + threads + ", initialPower="
                + initialPower + "]";
    }

    /** Builds a {@link RedfishSpec}; every setter validates at once and names what it refuses. Not thread-safe. */
    public static final class Builder {

        private final List<RedfishUser> users = new ArrayList<>();
        private List<String> systems = List.of();
        private final List<RedfishPdu> pdus = new ArrayList<>();
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private boolean tls;
        private boolean subjectAltNames = true;
        private int threads = DEFAULT_THREADS;
        private int requestLogLimit = DEFAULT_REQUEST_LOG_LIMIT;
        private PowerState initialPower = PowerState.ON;
        private LongSupplier nanoClock = System::nanoTime;

        private Builder() {
        }

        /**
         * Adds an account for HTTP Basic and for sessions.
         *
         * @throws IllegalArgumentException if the account is invalid or the name is already taken
         */
        public Builder user(String name, String password) {
            RedfishUser user = new RedfishUser(name, password);
            if (users.stream().anyMatch(u -> u.name().equals(name))) {
                throw new IllegalArgumentException("user '" + name + "' is added twice; give each account its "
                        + "own name");
            }
            users.add(user);
            return this;
        }

        /**
         * Sets the ComputerSystem ids, replacing earlier ones.
         *
         * @throws IllegalArgumentException if an id is not a URI segment or appears twice
         */
        public Builder systems(String... ids) {
            return systems(List.of(ids));
        }

        /**
         * Sets the ComputerSystem ids, replacing earlier ones.
         *
         * @throws IllegalArgumentException if an id is not a URI segment or appears twice
         */
        public Builder systems(List<String> ids) {
            Set<String> unique = new LinkedHashSet<>();
            for (String id : ids) {
                checkSegment("system id", Objects.requireNonNull(id, "system id"));
                if (!unique.add(id)) {
                    throw new IllegalArgumentException("system id '" + id + "' appears twice; ids must be unique");
                }
            }
            this.systems = List.copyOf(unique);
            return this;
        }

        /**
         * Sets {@code count} systems {@code node-1} to {@code node-<count>}, replacing earlier ones (for fleets
         * and benchmarks).
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder systemCount(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("systemCount " + count + " must not be negative");
            }
            List<String> ids = new ArrayList<>(count);
            for (int i = 1; i <= count; i++) {
                ids.add("node-" + i);
            }
            this.systems = List.copyOf(ids);
            return this;
        }

        /**
         * Adds a rack PDU {@code id} with outlets {@code 1} to {@code count}.
         *
         * @throws IllegalArgumentException if the PDU is invalid or the id is already taken
         */
        public Builder outlets(String id, int count) {
            RedfishPdu pdu = new RedfishPdu(id, count);
            if (pdus.stream().anyMatch(p -> p.id().equals(id))) {
                throw new IllegalArgumentException("PDU '" + id + "' is added twice; give each PDU its own id");
            }
            pdus.add(pdu);
            return this;
        }

        /**
         * Sets how many sessions the SessionService holds at once; creating one more answers 503
         * {@code SessionLimitExceeded}.
         *
         * @throws IllegalArgumentException if not 1 to {@value #MAX_SESSIONS_LIMIT}
         */
        public Builder maxSessions(int max) {
            if (max < 1 || max > MAX_SESSIONS_LIMIT) {
                throw new IllegalArgumentException("maxSessions " + max + " must be 1 to " + MAX_SESSIONS_LIMIT);
            }
            this.maxSessions = max;
            return this;
        }

        /** Serves HTTPS with a self-signed certificate generated at start ({@code true}), or plain HTTP. */
        public Builder tls(boolean enabled) {
            this.tls = enabled;
            return this;
        }

        /**
         * Gives the TLS certificate no subject alternative name, only its common name, as many BMCs' self-signed
         * certificates have: a client that verifies the host name refuses it even when it trusts the certificate.
         */
        public Builder certificateWithoutSubjectAltNames() {
            this.subjectAltNames = false;
            return this;
        }

        /**
         * Sets the HTTP worker threads.
         *
         * @throws IllegalArgumentException if not 1 to {@value #MAX_THREADS}
         */
        public Builder threads(int count) {
            if (count < 1 || count > MAX_THREADS) {
                throw new IllegalArgumentException("threads " + count + " must be 1 to " + MAX_THREADS);
            }
            this.threads = count;
            return this;
        }

        /**
         * Sets how many of the latest requests the request log keeps (0 keeps none; counters still count).
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder requestLogLimit(int limit) {
            if (limit < 0) {
                throw new IllegalArgumentException("requestLogLimit " + limit + " must not be negative");
            }
            this.requestLogLimit = limit;
            return this;
        }

        /**
         * Sets the power state every system and outlet starts in ({@code ON} unless told otherwise).
         *
         * @throws IllegalArgumentException if {@code UNKNOWN}
         */
        public Builder initialPower(PowerState state) {
            this.initialPower = ScheduledPowerTarget.checked(state);
            return this;
        }

        /**
         * Sets the monotonic nanosecond clock that times power change delays and asynchronous tasks
         * ({@link System#nanoTime()} unless told otherwise); a test passes a fake one to move time by hand.
         * Response delays ({@link RedfishFaults#slowResponses}) always take real time.
         */
        public Builder nanoClock(LongSupplier clock) {
            this.nanoClock = Objects.requireNonNull(clock, "nanoClock");
            return this;
        }

        /**
         * Builds the spec.
         *
         * @throws IllegalStateException if no account was added
         */
        public RedfishSpec build() {
            if (users.isEmpty()) {
                throw new IllegalStateException("a Redfish spec needs at least one account: call user(name, "
                        + "password)");
            }
            return new RedfishSpec(this);
        }
    }
}
