package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node agent running on its node: opens the watchdog, serves the peers, and schedules the {@link NodeAgent}'s
 * checks (every {@code apiCheckInterval}) and watchdog feeds (every third of the device's timeout), each on its own
 * thread, so that a check that hangs stops the feeding. {@code remedy node-agent} runs one.
 */
public final class NodeAgentRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgentRunner.class);
    /** How often the mounted TLS files are compared with the ones in use (the kubelet updates them within minutes). */
    private static final Duration TLS_RELOAD = Duration.ofMinutes(1);

    /**
     * Where the runner finds the host's files.
     *
     * @param tlsDir   the mounted Secret {@link NodeAgentContract#TLS_SECRET} ({@code tls.crt}, {@code tls.key},
     *                 {@code ca.crt})
     * @param sysfs    the watchdog class directory ({@link Watchdogs#SYSFS})
     * @param procStat the kernel statistics with the boot time ({@link BootTime#PROC_STAT})
     * @param bind     the address the peer server binds, with the settings' {@code peerPort}
     */
    public record Host(Path tlsDir, Path sysfs, Path procStat, InetSocketAddress bind) {
        /** Validates the fields. */
        public Host {
            Objects.requireNonNull(tlsDir, "tlsDir");
            Objects.requireNonNull(sysfs, "sysfs");
            Objects.requireNonNull(procStat, "procStat");
            Objects.requireNonNull(bind, "bind");
        }
    }

    private final NodeAgent agent;
    private final PeerServer server;
    private final ExecutorService workers;
    private final ScheduledExecutorService checks;
    private final ScheduledExecutorService feeds;

    private NodeAgentRunner(NodeAgent agent, PeerServer server, ExecutorService workers,
            ScheduledExecutorService checks, ScheduledExecutorService feeds) {
        this.agent = agent;
        this.server = server;
        this.workers = workers;
        this.checks = checks;
        this.feeds = feeds;
    }

    /**
     * Starts the agent of {@code node}.
     *
     * @param client         the agent's client; its request timeout at most {@code apiServerTimeout}
     * @param node           the node it runs on
     * @param namespace      the agents' namespace (their Leases)
     * @param settings       the settings
     * @param machineVersion the Cluster API version of Machines
     * @param host           the host's files and the bind address
     * @throws IOException if the watchdog, the boot time or the TLS files cannot be read, or the port bound; the
     *                     watchdog is closed armed in that case only if it was opened
     */
    public static NodeAgentRunner start(KubernetesClient client, String node, String namespace,
            NodeAgentSettings settings, String machineVersion, Host host) throws IOException {
        Instant boot = BootTime.read(host.procStat());
        PeerTls tls = PeerTls.load(host.tlsDir().resolve(NodeAgentContract.TLS_CERT_KEY),
                host.tlsDir().resolve(NodeAgentContract.TLS_KEY_KEY),
                host.tlsDir().resolve(NodeAgentContract.TLS_CA_KEY));
        ExecutorService workers = Executors.newCachedThreadPool(daemons("remedy-node-agent-worker"));
        Watchdog watchdog = null;
        PeerServer server = null;
        try {
            watchdog = Watchdogs.open(settings, host.sysfs());
            NodeAgent agent = NodeAgent.builder().node(node).settings(settings)
                    .view(new KubeClusterView(client, namespace, settings, machineVersion))
                    .peers(new HttpsPeerClient(tls, settings, workers)).watchdog(watchdog).bootTime(boot)
                    .executor(workers).build();
            server = PeerServer.start(host.bind(), tls, agent::answer, workers);
            ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(daemons(
                    "remedy-node-agent-check"));
            ScheduledExecutorService feeds = Executors.newSingleThreadScheduledExecutor(daemons(
                    "remedy-node-agent-watchdog"));
            checks.scheduleWithFixedDelay(() -> guarded(agent::check), 0,
                    settings.timings().apiCheckInterval().toMillis(), TimeUnit.MILLISECONDS);
            checks.scheduleWithFixedDelay(() -> reload(tls), TLS_RELOAD.toMillis(), TLS_RELOAD.toMillis(),
                    TimeUnit.MILLISECONDS);
            if (watchdog.mode() == WatchdogMode.ARMED) {
                long period = Math.max(1, watchdog.timeout().orElseThrow().dividedBy(3).toMillis());
                feeds.scheduleAtFixedRate(() -> guarded(agent::feed), 0, period, TimeUnit.MILLISECONDS);
            }
            LOG.info("node agent of {} started: watchdog {}, peers on {}, boot {}", node, watchdog.mode().code(),
                    server.address(), boot);
            return new NodeAgentRunner(agent, server, workers, checks, feeds);
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            if (watchdog != null) {
                watchdog.close(true);
            }
            workers.shutdownNow();
            throw e;
        }
    }

    /** Takes the renewed certificate the kubelet wrote in the mounted Secret; a bad file leaves the old one. */
    static void reload(PeerTls tls) {
        try {
            if (tls.reloadIfChanged()) {
                LOG.info("peer TLS: the Secret's files changed; the new certificate is used for the next handshakes");
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("peer TLS: the changed Secret's files cannot be used, the previous ones stay in use: {}",
                    e.getMessage());
        }
    }

    private static void guarded(Runnable tick) {
        try {
            tick.run();
        } catch (RuntimeException e) {
            LOG.error("node agent tick failed: {}", e.toString());
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The agent. */
    public NodeAgent agent() {
        return agent;
    }

    /** Where the peer server listens. */
    public InetSocketAddress peerAddress() {
        return server.address();
    }

    /**
     * Stops: the checks and feeds, the peer server, then the watchdog, disarmed only when {@code clean} and the node
     * was not declared unhealthy (and the settings allow the magic close).
     */
    public void close(boolean clean) {
        checks.shutdownNow();
        feeds.shutdownNow();
        server.close();
        try {
            checks.awaitTermination(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agent.watchdog().close(clean && agent.status().health() != NodeAgent.Health.UNHEALTHY);
        workers.shutdownNow();
    }

    /** {@link #close(boolean) close(false)}. */
    @Override
    public void close() {
        close(false);
    }
}
