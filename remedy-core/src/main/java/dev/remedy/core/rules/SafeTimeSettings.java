package dev.remedy.core.rules;

import java.time.Duration;
import java.util.Objects;

/**
 * The timings of poison-pill health checking, and from them the safe time after which the cluster may assume an
 * unhealthy node has rebooted itself and release its workloads.
 *
 * <p>The safe time is the worst case, counted from the moment the node loses the API server, until its old
 * processes are gone:
 * <pre>
 *   maxApiErrorThreshold × (apiCheckInterval + apiServerTimeout)   the node notices: consecutive failed checks
 * + decisionAllowance                                              work no timeout bounds (peer list, scheduling)
 * + batches × (peerDialTimeout + peerRequestTimeout)               asking every batch of peers, in the worst case
 * + watchdogTimeout                                                the node stops feeding the watchdog; it fires
 * + rebootDuration                                                 the reset takes effect
 * </pre>
 * where {@code batches} is {@link PeerSelection#batchCount(int)}: a node that hears nothing asks every batch. With
 * the defaults (15 s, 5 s, 3, 30 s, 5 s, 5 s, 60 s, 15 s) that is {@code 60 + 30 + 10·batches + 60 + 15}: 175 s for
 * a two-node cluster (one batch) and 10 s more per extra batch. {@link #effectiveSafeTime} never goes below the
 * configured value, whose default is medik8s's 180 s, and never below the computed one, so a configured value that
 * is too short is overridden rather than trusted.
 *
 * @param apiCheckInterval     time between two API server checks
 * @param apiServerTimeout     timeout of one API server check
 * @param maxApiErrorThreshold consecutive failed checks before peers are asked; at least 1
 * @param decisionAllowance    allowance for the steps no timeout bounds
 * @param peerDialTimeout      timeout to connect to a peer
 * @param peerRequestTimeout   timeout of a peer's answer once connected
 * @param watchdogTimeout      the watchdog device's timeout (it is fed every third of it)
 * @param rebootDuration       time from the watchdog firing until the node's processes are gone
 */
public record SafeTimeSettings(Duration apiCheckInterval, Duration apiServerTimeout, int maxApiErrorThreshold,
        Duration decisionAllowance, Duration peerDialTimeout, Duration peerRequestTimeout, Duration watchdogTimeout,
        Duration rebootDuration) {

    /** Default of {@link #apiCheckInterval()}. */
    public static final Duration DEFAULT_API_CHECK_INTERVAL = Duration.ofSeconds(15);
    /** Default of {@link #apiServerTimeout()}. */
    public static final Duration DEFAULT_API_SERVER_TIMEOUT = Duration.ofSeconds(5);
    /** Default of {@link #maxApiErrorThreshold()}. */
    public static final int DEFAULT_MAX_API_ERROR_THRESHOLD = 3;
    /** Default of {@link #decisionAllowance()}. */
    public static final Duration DEFAULT_DECISION_ALLOWANCE = Duration.ofSeconds(30);
    /** Default of {@link #peerDialTimeout()}. */
    public static final Duration DEFAULT_PEER_DIAL_TIMEOUT = Duration.ofSeconds(5);
    /** Default of {@link #peerRequestTimeout()}. */
    public static final Duration DEFAULT_PEER_REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** Default of {@link #watchdogTimeout()}. */
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = Duration.ofSeconds(60);
    /** Default of {@link #rebootDuration()}. */
    public static final Duration DEFAULT_REBOOT_DURATION = Duration.ofSeconds(15);
    /** The default configured safe time, the floor of {@link #effectiveSafeTime}. */
    public static final Duration DEFAULT_SAFE_TIME = Duration.ofSeconds(180);

    /** Validates the fields. */
    public SafeTimeSettings {
        requirePositive(apiCheckInterval, "apiCheckInterval");
        requirePositive(apiServerTimeout, "apiServerTimeout");
        if (maxApiErrorThreshold < 1) {
            throw new IllegalArgumentException("maxApiErrorThreshold: must be at least 1, was " + maxApiErrorThreshold);
        }
        requireNotNegative(decisionAllowance, "decisionAllowance");
        requirePositive(peerDialTimeout, "peerDialTimeout");
        requirePositive(peerRequestTimeout, "peerRequestTimeout");
        requirePositive(watchdogTimeout, "watchdogTimeout");
        requireNotNegative(rebootDuration, "rebootDuration");
    }

    private static void requirePositive(Duration d, String field) {
        Objects.requireNonNull(d, field);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(field + ": must be positive, was " + d);
        }
    }

    private static void requireNotNegative(Duration d, String field) {
        Objects.requireNonNull(d, field);
        if (d.isNegative()) {
            throw new IllegalArgumentException(field + ": must not be negative, was " + d);
        }
    }

    /**
     * The defaults.
     *
     * @return 15 s checks with a 5 s timeout, 3 errors, 30 s allowance, 5 s + 5 s per peer, 60 s watchdog, 15 s reboot
     */
    public static SafeTimeSettings ofDefaults() {
        return new SafeTimeSettings(DEFAULT_API_CHECK_INTERVAL, DEFAULT_API_SERVER_TIMEOUT,
                DEFAULT_MAX_API_ERROR_THRESHOLD, DEFAULT_DECISION_ALLOWANCE, DEFAULT_PEER_DIAL_TIMEOUT,
                DEFAULT_PEER_REQUEST_TIMEOUT, DEFAULT_WATCHDOG_TIMEOUT, DEFAULT_REBOOT_DURATION);
    }

    /**
     * Time for the node to notice it lost the API server.
     *
     * @return {@code maxApiErrorThreshold × (apiCheckInterval + apiServerTimeout)}
     */
    public Duration detectionTime() {
        return apiCheckInterval.plus(apiServerTimeout).multipliedBy(maxApiErrorThreshold);
    }

    /**
     * Worst-case time to ask the peers.
     *
     * @param clusterSize the number of nodes, the unhealthy one included; at least 1
     * @return {@code batches × (peerDialTimeout + peerRequestTimeout)}
     */
    public Duration peerTime(int clusterSize) {
        return peerDialTimeout.plus(peerRequestTimeout).multipliedBy(PeerSelection.batchCount(clusterSize));
    }

    /**
     * The computed minimum safe time to assume the node rebooted.
     *
     * @param clusterSize the number of nodes, the unhealthy one included; at least 1
     * @return the sum described on the type
     */
    public Duration minimumSafeTime(int clusterSize) {
        return detectionTime().plus(decisionAllowance).plus(peerTime(clusterSize)).plus(watchdogTimeout)
                .plus(rebootDuration);
    }

    /**
     * The safe time to use: the configured one, unless it is shorter than the computed minimum.
     *
     * @param configured  the configured safe time; not negative
     * @param clusterSize the number of nodes, the unhealthy one included; at least 1
     * @return {@code max(configured, minimumSafeTime(clusterSize))}
     */
    public Duration effectiveSafeTime(Duration configured, int clusterSize) {
        requireNotNegative(configured, "configured");
        Duration min = minimumSafeTime(clusterSize);
        return configured.compareTo(min) >= 0 ? configured : min;
    }
}
