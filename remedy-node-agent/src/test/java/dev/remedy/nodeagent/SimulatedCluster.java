package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.SafeTimeSettings;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A cluster of node agents in one JVM: each with its own fabric8 client reaching the mock API server through its own
 * {@link ApiLink}, its own peer server on loopback HTTPS with mutual TLS, and a {@link FakeWatchdog}; one fake clock.
 * Switches cut a node from the API server and pairs of nodes from each other; a hung agent stops checking, a killed
 * one stops checking and feeding. The test drives time: each {@link #round()} is one check interval.
 */
final class SimulatedCluster implements AutoCloseable {

    static final String NAMESPACE = "remedy-system";
    static final String RACK = "topology.remedy.dev/rack";

    /**
     * The defaults, with an API server timeout of 2 s (real time: a link that hangs costs it at every check). The peer
     * timeouts keep their 5 s defaults: a cut peer link refuses at once, and a slow TLS handshake on a busy machine
     * must not turn an answer into silence.
     */
    static final NodeAgentSettings SETTINGS = settings();

    final FakeTimeSource time = new FakeTimeSource();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "simulated-cluster");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Set<String> cuts = new HashSet<>();
    private final InetSocketAddress dead;

    /** One node: its agent and everything around it. */
    record Member(String name, String rack, ApiLink api, KubernetesClient client, NodeAgent agent, PeerServer server,
            FakeWatchdog watchdog, boolean[] hung, boolean[] killed) {
    }

    /**
     * Creates the nodes in the API server and starts an agent on each.
     *
     * @param admin the test's own client of the mock API server
     * @param racks node name to rack
     * @param tlsDir where the test PKI writes the agents' Secret
     */
    SimulatedCluster(KubernetesClient admin, Map<String, String> racks, Path tlsDir) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            dead = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
        PeerTls tls = TestPki.load(TestPki.create("remedy node agents").issue(tlsDir, "remedy-node-agent"));
        URI master = URI.create(admin.getConfiguration().getMasterUrl());
        InetSocketAddress target = new InetSocketAddress(master.getHost(), master.getPort());
        for (Map.Entry<String, String> node : racks.entrySet()) {
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(node.getKey())
                    .addToLabels(RACK, node.getValue()).endMetadata().withNewStatus().addNewAddress()
                    .withType("InternalIP").withAddress("127.0.0.1").endAddress().endStatus().build()).create();
        }
        for (Map.Entry<String, String> node : racks.entrySet()) {
            String name = node.getKey();
            ApiLink api = new ApiLink(target, threads);
            Config config = Config.empty();
            config.setMasterUrl("http://127.0.0.1:" + api.port());
            config.setRequestTimeout(2_000);
            config.setConnectionTimeout(2_000);
            config.setRequestRetryBackoffLimit(0);
            KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
            FakeWatchdog watchdog = new FakeWatchdog(time, SETTINGS.timings().watchdogTimeout());
            HttpsPeerClient peers = new HttpsPeerClient(tls, SETTINGS, threads, peer -> address(name, peer.name()));
            NodeAgent agent = NodeAgent.builder().node(name).settings(SETTINGS)
                    .view(new KubeClusterView(client, NAMESPACE, SETTINGS, "v1beta1")).peers(peers)
                    .watchdog(watchdog).time(time).random(new SplittableRandom(name.hashCode()))
                    .bootTime(Instant.EPOCH).executor(threads).build();
            PeerServer server = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), tls,
                    agent::answer, threads);
            members.put(name, new Member(name, node.getValue(), api, client, agent, server, watchdog,
                    new boolean[1], new boolean[1]));
        }
    }

    private static NodeAgentSettings settings() {
        SafeTimeSettings t = SafeTimeSettings.ofDefaults();
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        return new NodeAgentSettings(new SafeTimeSettings(t.apiCheckInterval(), Duration.ofSeconds(2),
                t.maxApiErrorThreshold(), t.decisionAllowance(), t.peerDialTimeout(), t.peerRequestTimeout(),
                t.watchdogTimeout(), t.rebootDuration()), d.safeTime(), d.peerQuorum(), d.peerPort(),
                List.of(RACK), true, d.watchdogDevice(), d.watchdogFallback(), d.sysrqTrigger(), true);
    }

    /** Where {@code from} reaches {@code to}'s agent: a closed port when the link is cut. */
    private Optional<InetSocketAddress> address(String from, String to) {
        Member peer = members.get(to);
        if (peer == null || cuts.contains(from + ">" + to) || peer.killed()[0]) {
            return Optional.of(dead);
        }
        return Optional.of(peer.server().address());
    }

    Member member(String name) {
        return members.get(name);
    }

    /** Sets {@code nodes}' links to the API server. */
    void api(ApiLink.Mode mode, String... nodes) {
        for (String n : nodes) {
            members.get(n).api().set(mode);
        }
    }

    /** Sets every node's link to the API server: the API server itself is out. */
    void apiForEveryone(ApiLink.Mode mode) {
        members.values().forEach(m -> m.api().set(mode));
    }

    /** Cuts {@code nodes} from every other node, both ways (the nodes among themselves stay connected). */
    void partition(String... nodes) {
        Set<String> inside = Set.of(nodes);
        for (String a : inside) {
            for (String b : members.keySet()) {
                if (!inside.contains(b)) {
                    cuts.add(a + ">" + b);
                    cuts.add(b + ">" + a);
                }
            }
        }
    }

    /** The nodes of {@code rack}. */
    String[] rack(String rack) {
        return members.values().stream().filter(m -> m.rack().equals(rack)).map(Member::name)
                .toArray(String[]::new);
    }

    /** The agent's check loop hangs; its feeder goes on. */
    void hang(String node) {
        members.get(node).hung()[0] = true;
    }

    /** The agent is gone: no check, no feed, no answer. */
    void kill(String node) {
        members.get(node).killed()[0] = true;
    }

    /**
     * One check interval: the clock moves on, every agent that is not hung checks, and every agent that is alive feeds
     * its watchdog (at most a third of its timeout apart, as the runner does).
     */
    void round() {
        time.advance(SETTINGS.timings().apiCheckInterval());
        for (Member m : members.values()) {
            if (!m.hung()[0] && !m.killed()[0] && !m.watchdog().fired()) {
                m.agent().check();
            }
        }
        for (Member m : members.values()) {
            if (!m.killed()[0]) {
                m.agent().feed();
            }
        }
    }

    /** {@code n} rounds. */
    void rounds(int n) {
        for (int i = 0; i < n; i++) {
            round();
        }
    }

    /** The nodes whose watchdog fired: the nodes that were reset. */
    List<String> reset() {
        List<String> reset = new ArrayList<>();
        members.values().forEach(m -> {
            if (m.watchdog().fired()) {
                reset.add(m.name());
            }
        });
        return reset;
    }

    @Override
    public void close() throws IOException {
        for (Member m : members.values()) {
            m.server().close();
            m.api().close();
            m.client().close();
        }
        threads.shutdownNow();
    }
}
