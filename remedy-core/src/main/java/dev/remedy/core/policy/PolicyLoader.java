package dev.remedy.core.policy;

import static dev.remedy.config.ConfigNames.describe;
import static dev.remedy.config.ConfigNames.hint;

import dev.remedy.config.ConfigDocuments;
import dev.remedy.config.ConfigNode;
import dev.remedy.config.ConfigProblems;
import dev.remedy.config.DocumentException;
import dev.remedy.spi.config.ConfigProblem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Reads remedy policies from YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}), in remedy's own format or
 * as a Node remedy {@code Configuration} ({@code apiVersion: node-remedy/v1alpha}); both are described in the
 * package documentation.
 *
 * <p>A file with problems is refused with one {@link PolicyConfigurationException} that lists every problem at
 * once, each as {@code file:path: message}: syntax errors (with line and column), unknown keys (with "did you
 * mean"), missing keys, empty lists, malformed durations, durations over {@link #MAX_DURATION}, conditions that
 * hold less than {@link #MIN_CONDITION_DURATION}, escalation timeouts under 60 s, a remedy with both or
 * neither of fence and external, duplicate names, a role other than worker or control-plane, a worker policy
 * selecting control-plane nodes, remedies that are neither defined nor built in, invalid storm settings.
 *
 * <p>Thread-safe; one loader can be shared. Loading blocks on file I/O.
 */
public final class PolicyLoader {

    /** The apiVersion of remedy's own format; it may be left out. */
    public static final String API_VERSION = "remedy.dev/v1alpha1";
    /** The kind of remedy's own format; it may be left out. */
    public static final String KIND = "PolicySet";
    /** The apiVersion of the Node remedy design's {@code Configuration}. */
    public static final String NODE_REMEDY_API_VERSION = "node-remedy/v1alpha";
    /** The kind of the Node remedy design's document. */
    public static final String NODE_REMEDY_KIND = "Configuration";
    /**
     * The least time a condition must hold before a node is unhealthy: 30 s. A node is NotReady for a few seconds at
     * every kubelet restart or network blip; a policy that fences sooner fences healthy nodes.
     */
    public static final Duration MIN_CONDITION_DURATION = Duration.ofSeconds(30);
    /**
     * The longest duration of any policy setting (condition durations, escalation timeouts, the healthy delay, storm
     * cooldowns, periods and windows): 7 days, longer than any admin would wait, and short enough that no deadline
     * computed from it can overflow. Race delays have their own limit, {@link dev.remedy.core.storm.StormSettings#MAX_RACE_DELAY}.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(7);
    /** The least escalation timeout: 60 s, as medik8s Node Healthcheck requires. */
    public static final Duration MIN_ESCALATION_TIMEOUT = Duration.ofSeconds(60);
    /** The healthy delay of a policy that names none: 0, a node's remediation ends once it is healthy. */
    public static final Duration DEFAULT_HEALTHY_DELAY = Duration.ZERO;
    /** The timeout of a Node remedy rung without {@code period}: 5 minutes. */
    public static final Duration DEFAULT_NODE_REMEDY_PERIOD = Duration.ofMinutes(5);
    /** Policies converted from a Node remedy configuration are named this, then {@code Type=Status}. */
    public static final String NODE_REMEDY_POLICY_PREFIX = "node-remedy/";
    /**
     * Node remedy names that need no {@code remedyConfigs} entry: each is a {@link Remedy.Fence}, the fence flow
     * with the agents of the node's fence topology (storage fencing is that topology's isolation step).
     */
    public static final List<String> BUILT_IN_FENCES = List.of("fence", "power-fence", "storage-fence");
    /** The one Node remedy {@code recovery}: the fence flow's recovery step, which adds no rung to the ladder. */
    public static final String BUILT_IN_RECOVERY = "recovery";
    /**
     * The annotation a converted Node remedy job carries when its rung says {@code clean-resource: true}: the design
     * asks to release the node's workloads once the job has succeeded. The Job carries it, but nothing releases
     * workloads after a Job yet: a Job's success does not confirm that the node is off, which releasing requires; a
     * fence remedy (which confirms it) releases them.
     */
    public static final String RELEASE_WORKLOADS_ANNOTATION = "remedy.dev/release-workloads";

    private static final List<String> API_VERSIONS = List.of(API_VERSION, NODE_REMEDY_API_VERSION);

    /** A loader; cheap to create, and reusable. */
    public PolicyLoader() {
    }

    /**
     * Reads {@code file} (UTF-8); its extension gives the format.
     *
     * @throws PolicyConfigurationException listing every problem, or saying why the file cannot be read
     */
    public PolicySet load(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        ConfigNode root = ConfigDocuments.read(file, e -> refused(source, e));
        return read(root, source);
    }

    /**
     * Reads {@code text}; the extension of {@code sourceName} gives the format, and issues name {@code sourceName}.
     *
     * @throws PolicyConfigurationException listing every problem
     */
    public PolicySet parse(String text, String sourceName) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        ConfigNode root = ConfigDocuments.parse(text, sourceName, e -> refused(sourceName, e));
        return read(root, sourceName);
    }

    private static PolicySet read(ConfigNode root, String source) {
        ConfigProblems problems = new ConfigProblems(source);
        String either = "policies (remedy's format) or a Node remedy Configuration";
        List<Policy> policies = problems.document(root, either, either).map(document -> {
            ConfigNode apiVersion = document.get("apiVersion");
            String version = apiVersion != null && apiVersion.isTextual() ? apiVersion.asText() : null;
            if (apiVersion == null && (document.has("thresholdConfigs") || document.has("remedyConfigs"))) {
                problems.add("apiVersion", "is missing, and thresholdConfigs/remedyConfigs belong to the Node remedy "
                        + "format; add apiVersion: " + NODE_REMEDY_API_VERSION + " and kind: " + NODE_REMEDY_KIND);
            } else if (NODE_REMEDY_API_VERSION.equals(version)) {
                return new NodeRemedyReader(problems).read(document);
            } else if (apiVersion == null || API_VERSION.equals(version)) {
                return new PolicyReader(problems).read(document);
            } else {
                problems.add("apiVersion", "is " + (version == null ? describe(apiVersion) : "'" + version + "'")
                        + ", not a known format" + hint(version == null ? "" : version, API_VERSIONS, "known")
                        + " (remedy's own format may leave apiVersion out)");
            }
            return List.<Policy>of();
        }).orElse(List.of());
        if (!problems.isEmpty()) {
            throw new PolicyConfigurationException(problems.list());
        }
        return new PolicySet(source, policies);
    }

    private static PolicyConfigurationException refused(String source, DocumentException e) {
        return new PolicyConfigurationException(List.of(ConfigProblem.in(source, "", e.getMessage())), e.getCause());
    }
}
