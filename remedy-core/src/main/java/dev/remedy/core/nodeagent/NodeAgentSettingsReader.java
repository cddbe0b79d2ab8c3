package dev.remedy.core.nodeagent;

import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.index;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.DocumentException;
import dev.remedy.config.Labels;
import dev.remedy.core.rules.SafeTimeSettings;
import dev.remedy.spi.config.ConfigProblem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads {@link NodeAgentSettings} from YAML: the value of the ConfigMap {@link NodeAgentContract#CONFIG_MAP}'s key
 * {@link NodeAgentContract#SETTINGS_KEY}, or a file ({@code remedy node-agent --settings FILE}). Every key is optional
 * and defaults to {@link NodeAgentSettings#ofDefaults()}; an empty document gives the defaults.
 *
 * <pre>
 * apiCheckInterval: 15s          # at most 10m
 * apiServerTimeout: 5s           # at most 1m
 * maxApiErrorThreshold: 3        # 1 to 100 consecutive failed checks before the peers are asked
 * peerDialTimeout: 5s            # at most 1m
 * peerRequestTimeout: 5s         # at most 1m
 * peerQuorum: 1                  # 1 to 1000 "unhealthy" answers that decide a reset
 * peerPort: 30100
 * spreadPeersAcrossDomains: true
 * failureDomainLabels:           # [] for none
 *   - topology.kubernetes.io/zone
 *   - topology.remedy.dev/rack
 * watchdogDevice: /dev/watchdog  # an absolute path
 * watchdogTimeout: 60s           # at most 10m; the device's own timeout is what the agent reports
 * watchdogFallback: software-reboot   # or none
 * sysrqTrigger: /proc/sysrq-trigger
 * watchdogMagicClose: true       # disarm on a clean shutdown of a healthy agent
 * decisionAllowance: 30s         # at most 10m
 * rebootDuration: 15s            # at most 30m
 * safeTime: 180s                 # at most 1d; the computed minimum wins when longer
 * </pre>
 *
 * <p>A document with problems is refused with one {@link NodeAgentSettingsException} listing every problem, each
 * naming the key. Bounded as every remedy configuration ({@link ConfigDocuments}). Thread-safe.
 */
public final class NodeAgentSettingsReader {

    /** The longest {@code apiCheckInterval}. */
    public static final Duration MAX_CHECK_INTERVAL = Duration.ofMinutes(10);
    /** The longest API server and peer timeout. */
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(1);
    /** The longest {@code watchdogTimeout}, and {@code decisionAllowance}. */
    public static final Duration MAX_WATCHDOG_TIMEOUT = Duration.ofMinutes(10);
    /** The longest {@code rebootDuration}. */
    public static final Duration MAX_REBOOT_DURATION = Duration.ofMinutes(30);
    /** The longest configured {@code safeTime}. */
    public static final Duration MAX_SAFE_TIME = Duration.ofDays(1);

    static final List<String> KEYS = List.of("apiCheckInterval", "apiServerTimeout", "maxApiErrorThreshold",
            "peerDialTimeout", "peerRequestTimeout", "peerQuorum", "peerPort", "spreadPeersAcrossDomains",
            "failureDomainLabels", "watchdogDevice", "watchdogTimeout", "watchdogFallback", "sysrqTrigger",
            "watchdogMagicClose", "decisionAllowance", "rebootDuration", "safeTime");

    private NodeAgentSettingsReader() {
    }

    /**
     * Reads the settings file {@code file} (YAML, whatever its name).
     *
     * @throws NodeAgentSettingsException listing every problem, or saying why the file cannot be read
     */
    public static NodeAgentSettings read(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        ConfigNode root;
        try {
            root = ConfigDocuments.readYaml(file);
        } catch (DocumentException e) {
            throw refused(source, e);
        }
        return read(root, source);
    }

    /**
     * Parses settings text, such as the ConfigMap's value; problems name {@code sourceName}, as in
     * {@code configmap remedy/remedy-node-agent settings.yaml}.
     *
     * @throws NodeAgentSettingsException listing every problem
     */
    public static NodeAgentSettings parse(String text, String sourceName) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        ConfigNode root;
        try {
            root = ConfigDocuments.parseYaml(text);
        } catch (DocumentException e) {
            throw refused(sourceName, e);
        }
        return read(root, sourceName);
    }

    private static NodeAgentSettingsException refused(String source, DocumentException e) {
        return new NodeAgentSettingsException(List.of(ConfigProblem.in(source, "", e.getMessage())), e.getCause());
    }

    private static NodeAgentSettings read(ConfigNode root, String source) {
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        if (root.isMissingNode() || root.isNull()) {
            return d;
        }
        ConfigProblems p = new ConfigProblems(source);
        if (!root.isObject()) {
            p.add("", "the settings must be a mapping of the keys " + String.join(", ", KEYS) + ", not "
                    + describe(root));
            throw new NodeAgentSettingsException(p.list(), null);
        }
        p.checkKeys(root, "", KEYS);
        SafeTimeSettings t = d.timings();
        Keys k = new Keys(root, p);
        Duration interval = k.positive("apiCheckInterval", t.apiCheckInterval(), MAX_CHECK_INTERVAL);
        Duration apiTimeout = k.positive("apiServerTimeout", t.apiServerTimeout(), MAX_TIMEOUT);
        int errors = k.number("maxApiErrorThreshold", t.maxApiErrorThreshold(), 1, 100);
        Duration dial = k.positive("peerDialTimeout", t.peerDialTimeout(), MAX_TIMEOUT);
        Duration request = k.positive("peerRequestTimeout", t.peerRequestTimeout(), MAX_TIMEOUT);
        int quorum = k.number("peerQuorum", d.peerQuorum(), 1, 1000);
        int port = k.number("peerPort", d.peerPort(), 1, 65_535);
        boolean spread = k.flag("spreadPeersAcrossDomains", d.spreadPeersAcrossDomains());
        List<String> labels = k.labels("failureDomainLabels", d.failureDomainLabels());
        Path device = k.path("watchdogDevice", d.watchdogDevice());
        Duration watchdog = k.positive("watchdogTimeout", t.watchdogTimeout(), MAX_WATCHDOG_TIMEOUT);
        WatchdogFallback fallback = k.fallback("watchdogFallback", d.watchdogFallback());
        Path sysrq = k.path("sysrqTrigger", d.sysrqTrigger());
        boolean magicClose = k.flag("watchdogMagicClose", d.watchdogMagicClose());
        Duration allowance = k.duration("decisionAllowance", t.decisionAllowance(), MAX_WATCHDOG_TIMEOUT);
        Duration reboot = k.duration("rebootDuration", t.rebootDuration(), MAX_REBOOT_DURATION);
        Duration safeTime = k.duration("safeTime", d.safeTime(), MAX_SAFE_TIME);
        if (!p.isEmpty()) {
            throw new NodeAgentSettingsException(p.list(), null);
        }
        return new NodeAgentSettings(new SafeTimeSettings(interval, apiTimeout, errors, allowance, dial, request,
                watchdog, reboot), safeTime, quorum, port, labels, spread, device, fallback, sysrq, magicClose);
    }

    /** The keys of one document: each read with its default when absent; a problem keeps the default. */
    private record Keys(ConfigNode root, ConfigProblems p) {

        private <T> T given(String key, T fallback, Function<ConfigNode, Optional<T>> read) {
            ConfigNode node = root.get(key);
            return node == null ? fallback : read.apply(node).orElse(fallback);
        }

        Duration duration(String key, Duration fallback, Duration max) {
            return given(key, fallback, node -> p.duration(node, key, "a duration", max));
        }

        Duration positive(String key, Duration fallback, Duration max) {
            return given(key, fallback, node -> p.duration(node, key, "a duration", max).filter(v -> {
                if (v.isZero()) {
                    p.add(key, "is 0; give a positive duration");
                }
                return !v.isZero();
            }));
        }

        int number(String key, int fallback, int min, int max) {
            String range = min + " to " + max;
            return given(key, fallback, node -> p.wholeNumber(node, key, range).filter(v -> {
                boolean fits = v >= min && v <= max;
                if (!fits) {
                    p.add(key, "is " + v + "; give a whole number, " + range);
                }
                return fits;
            }));
        }

        boolean flag(String key, boolean fallback) {
            return given(key, fallback, node -> p.flag(node, key));
        }

        Path path(String key, Path fallback) {
            return given(key, fallback, node -> p.text(node, key, "an absolute path").flatMap(text -> {
                if (!text.startsWith("/") || text.indexOf('\0') >= 0) {
                    p.add(key, "is not an absolute path; give one such as " + fallback);
                    return Optional.empty();
                }
                return Optional.of(Path.of(text));
            }));
        }

        WatchdogFallback fallback(String key, WatchdogFallback fallback) {
            return given(key, fallback, node -> p.text(node, key, "software-reboot or none")
                    .flatMap(text -> {
                        Optional<WatchdogFallback> f = WatchdogFallback.fromCode(text);
                        if (f.isEmpty()) {
                            p.add(key, "is not a fallback; give software-reboot (write b to sysrqTrigger) or none "
                                    + "(never reset a node without a watchdog)");
                        }
                        return f;
                    }));
        }

        List<String> labels(String key, List<String> fallback) {
            return given(key, fallback, node -> {
                if (!node.isArray()) {
                    p.add(key, "must be a list of node label keys (give [] for none), not " + describe(node));
                    return Optional.empty();
                }
                List<String> labels = new ArrayList<>();
                boolean valid = true;
                for (int i = 0; i < node.size(); i++) {
                    String path = index(key, i);
                    Optional<String> label = p.text(node.get(i), path, "a node label key such as "
                            + NodeAgentSettings.ZONE_LABEL);
                    Optional<String> problem = label.flatMap(Labels::keyProblem);
                    problem.ifPresent(message -> p.add(path, message));
                    if (label.isPresent() && problem.isEmpty() && labels.contains(label.get())) {
                        p.add(path, "names " + label.get() + " a second time; name each label once");
                        valid = false;
                    }
                    valid &= label.isPresent() && problem.isEmpty();
                    label.ifPresent(labels::add);
                }
                return valid ? Optional.of(labels) : Optional.empty();
            });
        }
    }
}
