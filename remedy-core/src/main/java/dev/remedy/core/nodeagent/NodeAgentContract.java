package dev.remedy.core.nodeagent;

import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.util.Objects;

/**
 * The names the node agents and the operator share: where the settings are, the Lease in which each agent reports
 * that it runs and how it can reset its node, and the Secret of the peers' mutual TLS. Every value here is read by
 * the other side: change none of them alone.
 *
 * <p><b>The report.</b> Each agent holds a {@code coordination.k8s.io/v1} Lease named {@link #leaseName(String)}
 * ({@value #LEASE_PREFIX}{@code <node>}) in the agents' namespace, with holder identity the node's name, and renews it
 * ({@code spec.renewTime}) at each health check that read the API server and found the node healthy. Its
 * {@code spec.leaseDurationSeconds} is {@link #leaseDuration} of the settings. It is annotated with:
 * <ul>
 *   <li>{@value #WATCHDOG_ANNOTATION}: {@link WatchdogMode#code()}, {@code armed}, {@code software-reboot} or
 *       {@code none};</li>
 *   <li>{@value #WATCHDOG_TIMEOUT_ANNOTATION}: the timeout the device reports, as {@code 45s}
 *       ({@link Durations#format}: 60 s is {@code 1m}); absent unless armed. The operator uses the longer of it
 *       and the settings' {@code watchdogTimeout};</li>
 *   <li>{@value #SETTINGS_ANNOTATION}: {@link NodeAgentSettings#fingerprint()} of the settings the agent runs
 *       with.</li>
 * </ul>
 */
public final class NodeAgentContract {

    /** The ConfigMap, in the agents' namespace, that holds the settings. */
    public static final String CONFIG_MAP = "remedy-node-agent";
    /** The key of the ConfigMap whose value is the settings document (YAML). */
    public static final String SETTINGS_KEY = "settings.yaml";
    /**
     * The namespace of the agents, the ConfigMap, the Leases and the Secret unless configured otherwise: the
     * operator's ({@code deploy/00-namespace.yaml}).
     */
    public static final String DEFAULT_NAMESPACE = "remedy";
    /** Each agent's Lease is named this, then the node's name. */
    public static final String LEASE_PREFIX = "remedy-node-agent-";
    /** The Lease annotation with the agent's {@link WatchdogMode}. */
    public static final String WATCHDOG_ANNOTATION = "remedy.dev/watchdog";
    /** The Lease annotation with the watchdog device's timeout, when armed. */
    public static final String WATCHDOG_TIMEOUT_ANNOTATION = "remedy.dev/watchdog-timeout";
    /** The Lease annotation with the fingerprint of the agent's settings. */
    public static final String SETTINGS_ANNOTATION = "remedy.dev/node-agent-settings";
    /** The label of every object of the node agent (DaemonSet, pods, Leases): {@code app.kubernetes.io/name}. */
    public static final String NAME_LABEL = "app.kubernetes.io/name";
    /** The value of {@link #NAME_LABEL}. */
    public static final String NAME = "remedy-node-agent";
    /**
     * The Secret (type {@code kubernetes.io/tls}) with the peers' certificate, key and CA, mounted into every agent.
     */
    public static final String TLS_SECRET = "remedy-node-agent-tls";
    /** The key of {@link #TLS_SECRET} with the agents' certificate (PEM). */
    public static final String TLS_CERT_KEY = "tls.crt";
    /** The key of {@link #TLS_SECRET} with the agents' private key (PEM, PKCS#8). */
    public static final String TLS_KEY_KEY = "tls.key";
    /** The key of {@link #TLS_SECRET} with the CA that signed every agent's certificate (PEM). */
    public static final String TLS_CA_KEY = "ca.crt";

    private NodeAgentContract() {
    }

    /**
     * The name of {@code node}'s Lease.
     *
     * @return {@value #LEASE_PREFIX}{@code node}
     */
    public static String leaseName(String node) {
        Objects.requireNonNull(node, "node");
        return LEASE_PREFIX + node;
    }

    /**
     * The Lease's {@code leaseDurationSeconds}: two check intervals plus the API server timeout, rounded up to a
     * second. A Lease not renewed for this long means the agent missed a check that should have renewed it.
     */
    public static Duration leaseDuration(NodeAgentSettings settings) {
        Duration d = settings.timings().apiCheckInterval().multipliedBy(2).plus(settings.timings().apiServerTimeout());
        long seconds = d.toSeconds() + (d.toNanosPart() > 0 ? 1 : 0);
        return Duration.ofSeconds(seconds);
    }
}
