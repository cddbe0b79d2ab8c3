package dev.remedy.core.nodeagent;

import dev.remedy.core.rules.PeerSelection;
import dev.remedy.core.rules.PeerVerdict;
import dev.remedy.core.rules.SafeTimeSettings;
import dev.remedy.spi.config.Durations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The settings of the self-node-remediation node agents, which the operator reads too: the one configuration both
 * sides of the poison-pill design run with, so that the operator assumes a reset only where the agents would have
 * reset. Read by {@link NodeAgentSettingsReader} from the ConfigMap {@link NodeAgentContract#CONFIG_MAP}, key
 * {@link NodeAgentContract#SETTINGS_KEY}, or from a file; {@link #toYaml()} writes the same format back.
 *
 * <p>A batch of peers has {@link PeerSelection#batchSize(int)} peers: the design's {@code min(n/10, n-1)}, but at
 * least 1, because the design's formula gives 0 below 10 nodes and a node would then ask nobody; the first batch has
 * at least {@value PeerSelection#FIRST_BATCH} ({@link PeerSelection#firstBatchSize(int)}), as medik8s asks first.
 *
 * @param timings                  the check, peer and watchdog timings the safe time is computed from
 * @param safeTime                 the configured safe time, the floor of {@link #safeTime(int)} (default 180 s)
 * @param peerQuorum               how many "unhealthy" answers decide a reset ({@link PeerVerdict}; default 1)
 * @param peerPort                 the TCP port each agent serves its peers on (HTTPS, mutual TLS)
 * @param failureDomainLabels      the node label keys that name failure domains, coarse first; a node's domain in
 *                                 each is the label's value ({@link #domains(Map)})
 * @param spreadPeersAcrossDomains whether the peers asked first are spread over failure domains
 * @param watchdogDevice           the watchdog device ({@code /dev/watchdog})
 * @param watchdogFallback         what to do without a watchdog device
 * @param sysrqTrigger             where the software reboot writes {@code b} ({@code /proc/sysrq-trigger})
 * @param watchdogMagicClose       whether a clean shutdown of a healthy agent disarms the watchdog (magic close);
 *                                 never after the agent decided its node is unhealthy
 */
public record NodeAgentSettings(SafeTimeSettings timings, Duration safeTime, int peerQuorum, int peerPort,
        List<String> failureDomainLabels, boolean spreadPeersAcrossDomains, Path watchdogDevice,
        WatchdogFallback watchdogFallback, Path sysrqTrigger, boolean watchdogMagicClose) {

    /** The default failure-domain label of zones. */
    public static final String ZONE_LABEL = "topology.kubernetes.io/zone";
    /**
     * The default failure-domain label of racks. Kubernetes defines no rack label; give the one your nodes carry
     * (the same as the storm guard's {@code failureDomainLabel}) in {@code failureDomainLabels}.
     */
    public static final String RACK_LABEL = "topology.remedy.dev/rack";
    /** The default of {@link #failureDomainLabels()}: zone, then rack. */
    public static final List<String> DEFAULT_FAILURE_DOMAIN_LABELS = List.of(ZONE_LABEL, RACK_LABEL);
    /** The default of {@link #peerPort()}. */
    public static final int DEFAULT_PEER_PORT = 30_100;
    /** The default of {@link #watchdogDevice()}. */
    public static final Path DEFAULT_WATCHDOG_DEVICE = Path.of("/dev/watchdog");
    /** The default of {@link #sysrqTrigger()}. */
    public static final Path DEFAULT_SYSRQ_TRIGGER = Path.of("/proc/sysrq-trigger");

    /** Validates the fields and copies the list. */
    public NodeAgentSettings {
        Objects.requireNonNull(timings, "timings");
        Objects.requireNonNull(safeTime, "safeTime");
        if (safeTime.isNegative()) {
            throw new IllegalArgumentException("safeTime: must not be negative, was " + safeTime);
        }
        if (peerQuorum < 1) {
            throw new IllegalArgumentException("peerQuorum: must be at least 1, was " + peerQuorum);
        }
        if (peerPort < 1 || peerPort > 65_535) {
            throw new IllegalArgumentException("peerPort: must be a TCP port, 1 to 65535, was " + peerPort);
        }
        failureDomainLabels = List.copyOf(failureDomainLabels);
        if (failureDomainLabels.stream().distinct().count() != failureDomainLabels.size()) {
            throw new IllegalArgumentException("failureDomainLabels: a label key appears twice: "
                    + failureDomainLabels);
        }
        Objects.requireNonNull(watchdogDevice, "watchdogDevice");
        Objects.requireNonNull(watchdogFallback, "watchdogFallback");
        Objects.requireNonNull(sysrqTrigger, "sysrqTrigger");
    }

    /**
     * The defaults: {@link SafeTimeSettings#ofDefaults()}, safe time 180 s, quorum 1, port 30100, zone and rack
     * labels, peers spread, {@code /dev/watchdog} with the software-reboot fallback, magic close on a clean shutdown.
     */
    public static NodeAgentSettings ofDefaults() {
        return new NodeAgentSettings(SafeTimeSettings.ofDefaults(), SafeTimeSettings.DEFAULT_SAFE_TIME,
                PeerVerdict.DEFAULT_QUORUM, DEFAULT_PEER_PORT, DEFAULT_FAILURE_DOMAIN_LABELS, true,
                DEFAULT_WATCHDOG_DEVICE, WatchdogFallback.SOFTWARE_REBOOT, DEFAULT_SYSRQ_TRIGGER, true);
    }

    /**
     * The safe time after which the operator may assume an unhealthy node reset itself, for a cluster of
     * {@code clusterSize} nodes: {@link SafeTimeSettings#effectiveSafeTime} of the configured one.
     *
     * @param clusterSize the number of nodes, the unhealthy one included; at least 1
     */
    public Duration safeTime(int clusterSize) {
        return timings.effectiveSafeTime(safeTime, clusterSize);
    }

    /**
     * The node's failure domains: for each of {@link #failureDomainLabels()} the node carries, in that order, the
     * label key and its value.
     *
     * @param nodeLabels the node's labels
     */
    public Map<String, String> domains(Map<String, String> nodeLabels) {
        Objects.requireNonNull(nodeLabels, "nodeLabels");
        Map<String, String> domains = new LinkedHashMap<>();
        for (String key : failureDomainLabels) {
            String value = nodeLabels.get(key);
            if (value != null && !value.isEmpty()) {
                domains.put(key, value);
            }
        }
        return domains;
    }

    /**
     * The node's failure domain as one name, for spreading peers ({@link PeerSelection}): its {@link #domains} as
     * {@code key=value} joined with commas; empty for a node without any of the labels.
     */
    public Optional<String> failureDomain(Map<String, String> nodeLabels) {
        Map<String, String> domains = domains(nodeLabels);
        return domains.isEmpty() ? Optional.empty() : Optional.of(domains.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",")));
    }

    /**
     * The settings in the format {@link NodeAgentSettingsReader} reads, every key written, in a fixed order: the
     * same settings always give the same text.
     */
    public String toYaml() {
        StringBuilder y = new StringBuilder();
        line(y, "apiCheckInterval", Durations.format(timings.apiCheckInterval()));
        line(y, "apiServerTimeout", Durations.format(timings.apiServerTimeout()));
        line(y, "maxApiErrorThreshold", Integer.toString(timings.maxApiErrorThreshold()));
        line(y, "peerDialTimeout", Durations.format(timings.peerDialTimeout()));
        line(y, "peerRequestTimeout", Durations.format(timings.peerRequestTimeout()));
        line(y, "peerQuorum", Integer.toString(peerQuorum));
        line(y, "peerPort", Integer.toString(peerPort));
        line(y, "spreadPeersAcrossDomains", Boolean.toString(spreadPeersAcrossDomains));
        y.append("failureDomainLabels:").append(failureDomainLabels.isEmpty() ? " []\n" : "\n");
        failureDomainLabels.forEach(label -> y.append("  - ").append(label).append('\n'));
        line(y, "watchdogDevice", watchdogDevice.toString());
        line(y, "watchdogTimeout", Durations.format(timings.watchdogTimeout()));
        line(y, "watchdogFallback", watchdogFallback.code());
        line(y, "sysrqTrigger", sysrqTrigger.toString());
        line(y, "watchdogMagicClose", Boolean.toString(watchdogMagicClose));
        line(y, "decisionAllowance", Durations.format(timings.decisionAllowance()));
        line(y, "rebootDuration", Durations.format(timings.rebootDuration()));
        line(y, "safeTime", Durations.format(safeTime));
        return y.toString();
    }

    private static void line(StringBuilder y, String key, String value) {
        boolean plain = value.chars().allMatch(c -> Character.isLetterOrDigit(c) || "/._-".indexOf(c) >= 0);
        y.append(key).append(": ").append(plain ? value : "'" + value.replace("'", "''") + "'").append('\n');
    }

    /**
     * A short digest of {@link #toYaml()} (the first 16 hex digits of its SHA-256): each agent writes it in its
     * Lease ({@link NodeAgentContract#SETTINGS_ANNOTATION}) so that the operator can check that the agent runs with
     * the settings the operator computes the safe time from.
     */
    public String fingerprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(toYaml().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
