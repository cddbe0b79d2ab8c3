package dev.remedy.cli;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.NodeAgentSettingsReader;
import dev.remedy.fence.kube.config.NodeAgentSettingsMap;
import dev.remedy.nodeagent.KubeClusterView;
import dev.remedy.nodeagent.NodeAgentRunner;
import dev.remedy.spi.config.Durations;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code remedy node-agent}: the self-node-remediation agent of one node ({@link NodeAgentRunner}), as the DaemonSet
 * in {@code deploy/node-agent/} runs it. Runs until SIGTERM or SIGINT, then stops cleanly (the watchdog is disarmed
 * if the settings allow it and the node was not declared unhealthy).
 */
@Command(name = "node-agent", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Run the self-node-remediation agent of this node (the poison-pill design, for clusters without BMCs): "
                    + "check the node's health through the API server, ask the peers over mutual TLS when the API "
                    + "server is out of reach, and reset the node through its watchdog when it is unhealthy.",
            "The settings come from --settings FILE, else from the ConfigMap " + NodeAgentContract.CONFIG_MAP
                    + " (key " + NodeAgentContract.SETTINGS_KEY + ") in the namespace; the operator reads the same. "
                    + "--print-settings shows them with the safe time, and exits.",
            ""},
        footer = {"",
            "Deploy: see deploy/node-agent/ (DaemonSet, RBAC, the mTLS Secret).",
            "Exit code 3: bad options, settings or TLS files; 0 after SIGTERM."})
final class NodeAgentCommand implements Callable<Integer> {

    private static final Duration SHUTDOWN_BUDGET = Duration.ofSeconds(20);

    @ParentCommand
    private RemedyCli cli;

    @Option(names = "--node", paramLabel = "NAME", description = "this node's name (default: $NODE_NAME)")
    private String node;

    @Option(names = "--namespace", paramLabel = "NAME", description = "the agents' namespace: the ConfigMap and "
            + "the Leases (default: $POD_NAMESPACE, else " + NodeAgentContract.DEFAULT_NAMESPACE + ")")
    private String namespace;

    @Option(names = "--settings", paramLabel = "FILE", description = "read the settings from FILE (YAML) instead of "
            + "the ConfigMap")
    private Path settingsFile;

    @Option(names = "--print-settings", description = "print the settings and the safe time, and exit")
    private boolean printSettings;

    @Option(names = "--cluster-size", paramLabel = "N", defaultValue = "3", description = "with --print-settings: "
            + "the cluster size the safe time is shown for (default: ${DEFAULT-VALUE})")
    private int clusterSize;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "the kubeconfig to use (default: the pod's "
            + "service account in a cluster, else $KUBECONFIG, else ~/.kube/config)")
    private Path kubeconfig;

    @Option(names = "--tls-dir", paramLabel = "DIR", defaultValue = "/etc/remedy-node-agent/tls",
            description = "the mounted Secret " + NodeAgentContract.TLS_SECRET + " (tls.crt, tls.key, ca.crt) "
                    + "(default: ${DEFAULT-VALUE})")
    private Path tlsDir;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "0.0.0.0", description = "the address the peer "
            + "server binds, with the settings' peerPort (default: ${DEFAULT-VALUE})")
    private String bind;

    @Option(names = "--machine-api-version", paramLabel = "VERSION", defaultValue = KubeClusterView
            .DEFAULT_MACHINE_VERSION, description = "the Cluster API version of Machines (default: ${DEFAULT-VALUE})")
    private String machineVersion;

    @Option(names = "--sysfs", paramLabel = "DIR", hidden = true, defaultValue = "/sys/class/watchdog")
    private Path sysfs;

    @Option(names = "--proc-stat", paramLabel = "FILE", hidden = true, defaultValue = "/proc/stat")
    private Path procStat;

    @Option(names = "--verbose", description = "log what the agent does, and print stack traces of errors")
    private boolean verbose;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() throws InterruptedException {
        String ns = namespace != null ? namespace : cli.environment().variable("POD_NAMESPACE")
                .orElse(NodeAgentContract.DEFAULT_NAMESPACE);
        if (printSettings) {
            if (clusterSize < 1) {
                throw new UserError("--cluster-size: must be at least 1 (the nodes of the cluster), was "
                        + clusterSize);
            }
            NodeAgentSettings settings = settingsFile != null ? NodeAgentSettingsReader.read(settingsFile)
                    : readSettings(kubeConfig(), ns);
            cli.environment().out().print(settings.toYaml());
            cli.environment().out().println("# fingerprint: " + settings.fingerprint());
            cli.environment().out().println("# safe time for " + clusterSize + " nodes: "
                    + Durations.format(settings.safeTime(clusterSize)) + " (computed minimum "
                    + Durations.format(settings.timings().minimumSafeTime(clusterSize)) + ")");
            return ExitCodes.OK;
        }
        String self = node != null ? node : cli.environment().variable("NODE_NAME").orElseThrow(() -> new UserError(
                "the node's name is unknown: pass --node NAME, or set NODE_NAME (the DaemonSet sets it from "
                        + "spec.nodeName)"));
        Config config = kubeConfig();
        NodeAgentSettings settings = settingsFile != null ? NodeAgentSettingsReader.read(settingsFile)
                : readSettings(config, ns);
        // every request bounded by the check's timeout, no retries: a failed read is counted, not hidden
        config.setRequestTimeout((int) settings.timings().apiServerTimeout().toMillis());
        config.setConnectionTimeout((int) settings.timings().apiServerTimeout().toMillis());
        config.setRequestRetryBackoffLimit(0);
        NodeAgentRunner.Host host = new NodeAgentRunner.Host(tlsDir, sysfs, procStat,
                new InetSocketAddress(bind, settings.peerPort()));
        Thread hook = new Thread(this::stopAndWait, "remedy-node-agent-shutdown");
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            NodeAgentRunner runner;
            try {
                runner = NodeAgentRunner.start(client, self, ns, settings, machineVersion, host);
            } catch (IOException e) {
                throw new UserError("the node agent cannot start: " + e.getMessage());
            }
            Runtime.getRuntime().addShutdownHook(hook);
            cli.environment().out().println("remedy node agent of " + self + " started: watchdog "
                    + runner.agent().watchdog().mode().code() + ", peers on port " + runner.peerAddress().getPort()
                    + ", Lease " + ns + "/" + NodeAgentContract.leaseName(self) + ", settings "
                    + settings.fingerprint() + (settingsFile != null ? " from " + settingsFile : ""));
            cli.environment().out().flush();
            try {
                stop.await();
            } finally {
                runner.close(true);
            }
        } finally {
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it waits for this method to finish
            }
        }
        cli.environment().out().println("remedy node agent of " + self + " stopped");
        return ExitCodes.OK;
    }

    /** SIGTERM: stop, and wait (less than a pod's grace period) for the watchdog to be closed. */
    private void stopAndWait() {
        stop.countDown();
        try {
            stopped.await(SHUTDOWN_BUDGET.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Config kubeConfig() {
        return kubeconfig == null ? Config.autoConfigure(null) : OperatorCommand.readKubeconfig(kubeconfig);
    }

    /** The settings from the ConfigMap, with a client of {@code config} closed before the agent's is built. */
    private static NodeAgentSettings readSettings(Config config, String namespace) {
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            return NodeAgentSettingsMap.read(client, namespace);
        } catch (KubernetesClientException e) {
            throw new UserError("cannot read the ConfigMap " + NodeAgentContract.CONFIG_MAP + ": " + e.getMessage()
                    + "; pass --settings FILE to read a file instead");
        }
    }
}
