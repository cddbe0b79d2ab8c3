package dev.remedy.cli;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.fence.kube.config.ClusterConfiguration;
import dev.remedy.fence.kube.nodeagent.PeerCertificates;
import dev.remedy.fence.kube.operator.RemedyOperator;
import dev.remedy.fence.kube.operator.internal.HttpEndpoint;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code remedy operator}: {@link RemedyOperator} on a fabric8 client (in-cluster, {@code $KUBECONFIG},
 * {@code ~/.kube/config} or {@code --kubeconfig}), with its metrics in the Prometheus text format and its probes on
 * one HTTP address. Runs until SIGTERM or SIGINT; a shutdown hook closes the operator, which hands its Lease over.
 */
@Command(name = "operator", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Run remedy as a Kubernetes operator: watch the Nodes of a shard, and fence (power off through the "
                    + "fence agents), release and recover those that stay unhealthy longer than their policy allows. "
                    + "Each node's fence record is a NodeFence resource (kubectl get nodefences), each step an Event.",
            "Every replica reads the configuration and campaigns for the shard's Lease (remedy-SHARD in the "
                    + "namespace); only the leader fences. Stop it with SIGTERM or Ctrl-C: it hands the Lease over.",
            ""},
        footer = {"",
            "What it needs in the cluster, from the repository's deploy/ directory:",
            "  kubectl apply -f deploy/crds/              # the NodeFence and NodeFenceRemediation CRDs",
            "  kubectl apply -f deploy/00-namespace.yaml  # namespace remedy",
            "  kubectl apply -f deploy/10-serviceaccount.yaml -f deploy/20-rbac.yaml",
            "  ConfigMaps remedy-policies (key policies.yaml: the policies) and",
            "    remedy-fence (key fence.yaml: the fence configuration) in the",
            "    namespace; check both files first with 'remedy check'. Passwords",
            "    come from Secrets of the namespace that fence.yaml names as",
            "    {secret: {name: NAME, key: KEY}}.",
            "  kubectl apply -f deploy/40-deployment.yaml # 2 replicas, deploy/Dockerfile",
            "",
            "Outside the cluster, with a kubeconfig whose user has the rights of",
            "deploy/20-rbac.yaml:",
            "  remedy operator --kubeconfig ~/.kube/config --identity my-laptop",
            "",
            "HTTP: /healthz (alive), /readyz (configuration read and, on the leader,",
            "the nodes listed), /metrics (Prometheus). Exit code 3: bad options or an",
            "unreadable kubeconfig; 0 after SIGTERM."})
final class OperatorCommand implements Callable<Integer> {

    /** How long SIGTERM waits for the Lease to be handed over: less than a pod's default grace period (30 s). */
    private static final Duration SHUTDOWN_BUDGET = Duration.ofSeconds(25);

    @ParentCommand
    private RemedyCli cli;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "the kubeconfig to use (default: the pod's "
            + "service account in a cluster, else $KUBECONFIG, else ~/.kube/config)")
    private Path kubeconfig;

    @Option(names = "--namespace", paramLabel = "NAME", defaultValue = "remedy", description = "the operator's "
            + "namespace: its Lease, ConfigMaps, Secrets and node backups (default: ${DEFAULT-VALUE})")
    private String namespace;

    @Option(names = "--identity", paramLabel = "NAME", description = "this replica's name, the Lease holder while it"
            + " leads (default: $POD_NAME, else the host name)")
    private String identity;

    @Option(names = "--shard", paramLabel = "NAME", defaultValue = "default", description = "the shard this replica "
            + "serves; its Lease is remedy-NAME (default: ${DEFAULT-VALUE})")
    private String shard;

    @Option(names = "--node-selector", paramLabel = "KEY=VALUE[,KEY=VALUE...]", description = "the labels of the "
            + "shard's nodes, equality only (default: every node)")
    private String nodeSelector;

    @Option(names = "--policies-configmap", paramLabel = "NAME", defaultValue = ClusterConfiguration.DEFAULT_POLICIES,
            description = "the ConfigMap of the policies, key " + ClusterConfiguration.DEFAULT_POLICIES_KEY
                    + " (default: ${DEFAULT-VALUE})")
    private String policiesConfigMap;

    @Option(names = "--fence-configmap", paramLabel = "NAME", defaultValue = ClusterConfiguration.DEFAULT_FENCE,
            description = "the ConfigMap of the fence configuration, key " + ClusterConfiguration.DEFAULT_FENCE_KEY
                    + " (default: ${DEFAULT-VALUE})")
    private String fenceConfigMap;

    @Option(names = "--http-address", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8080",
            description = "where to serve /metrics, /healthz and /readyz; 0.0.0.0:8080 in a pod, port 0 picks a free "
                    + "one (default: ${DEFAULT-VALUE})")
    private String httpAddress;

    @Option(names = "--node-agent-tls", description = "create the node agents' mutual-TLS Secret "
            + NodeAgentContract.TLS_SECRET + " (and its CA's, " + PeerCertificates.CA_SECRET + ") in the namespace,"
            + " and renew its certificate; a Secret remedy did not create is left alone")
    private boolean nodeAgentTls;

    @Option(names = "--verbose", description = "log what the operator does, and print stack traces of errors")
    private boolean verbose;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** How often a failed request to the API server is retried, and after how long at first (it doubles). */
    private static final int RETRIES = 2;
    private static final Duration RETRY_INTERVAL = Duration.ofMillis(250);

    private volatile InetSocketAddress served;

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress address = OperatorOptions.address(httpAddress);
        Map<String, String> selector = OperatorOptions.selector(nodeSelector);
        String self = identity != null ? identity : cli.environment().variable("POD_NAME").orElseGet(
                OperatorCommand::hostName);
        Config config = kubeconfig == null ? null : readKubeconfig(kubeconfig);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(meters);
        new JvmThreadMetrics().bindTo(meters);
        new ProcessorMetrics().bindTo(meters);
        Thread hook = new Thread(this::stopAndWait, "remedy-operator-shutdown");
        Config bounded = config == null ? Config.autoConfigure(null) : config;
        // a few quick retries, not fabric8's ten with backoff: a Lease renewal must fail within the renew deadline,
        // and stopping must not wait out a minute of retries against an API server that went away
        bounded.setRequestRetryBackoffLimit(RETRIES);
        bounded.setRequestRetryBackoffInterval((int) RETRY_INTERVAL.toMillis());
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(bounded).build();
             RemedyOperator operator = RemedyOperator.builder(client).namespace(namespace).identity(self)
                     .shard(shard, selector).configMaps(policiesConfigMap, fenceConfigMap)
                     .agents(cli.environment().registry()).meters(meters).nodeAgentTls(nodeAgentTls).build();
             HttpEndpoint endpoint = listen(address, meters, operator)) {
            Runtime.getRuntime().addShutdownHook(hook);
            operator.start();
            served = endpoint.address();
            cli.environment().out().println("remedy operator " + self + " started: shard " + shard + " ("
                    + (selector.isEmpty() ? "every node" : "nodes labelled " + nodeSelector) + "), Lease " + namespace
                    + "/remedy-" + shard + ", configuration from ConfigMaps " + policiesConfigMap + " and "
                    + fenceConfigMap + "; /metrics, /healthz and /readyz on http://" + hostAndPort(served));
            cli.environment().out().flush();
            started.countDown();
            stop.await();
            cli.environment().out().println("remedy operator " + self + " stopping: handing the Lease over");
            cli.environment().out().flush();
        } finally {
            meters.close();
            removeHook(hook);
            stopped.countDown();
        }
        cli.environment().out().println("remedy operator " + self + " stopped: Lease handed over");
        cli.environment().out().flush();
        return ExitCodes.OK;
    }

    /** Waits until the operator serves; the address it serves, or null if it did not start in time. */
    InetSocketAddress awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? served : null;
    }

    /** Asks the operator to stop (as SIGTERM does), without waiting. */
    void stop() {
        stop.countDown();
    }

    private void stopAndWait() {
        stop();
        try {
            stopped.await(SHUTDOWN_BUDGET.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it waits for this method's caller to finish
        }
    }

    private static HttpEndpoint listen(InetSocketAddress address, PrometheusMeterRegistry meters,
                                       RemedyOperator operator) {
        try {
            return HttpEndpoint.start(address, meters::scrape, operator::live, operator::ready);
        } catch (UncheckedIOException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** Reads a kubeconfig; the error names the file and never repeats its content (it holds tokens). */
    static Config readKubeconfig(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UserError("cannot read kubeconfig " + file + ": no such file; pass an existing file to "
                    + "--kubeconfig, or omit it to use $KUBECONFIG or ~/.kube/config");
        }
        if (!Files.isReadable(file)) {
            throw new UserError("cannot read kubeconfig " + file + ": permission denied");
        }
        Config config;
        try {
            config = Config.fromKubeconfig(file.toFile());
        } catch (RuntimeException e) {
            throw new UserError("cannot read kubeconfig " + file + ": not a valid kubeconfig (" + e.getClass()
                    .getSimpleName() + "); check it with 'kubectl --kubeconfig " + file + " config view'");
        }
        if (config.getMasterUrl() == null || config.getCurrentContext() == null) {
            throw new UserError("cannot read kubeconfig " + file + ": it names no current context with a cluster; "
                    + "set one with 'kubectl --kubeconfig " + file + " config use-context NAME'");
        }
        return config;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "remedy-" + ProcessHandle.current().pid();
        }
    }

    private static String hostAndPort(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
