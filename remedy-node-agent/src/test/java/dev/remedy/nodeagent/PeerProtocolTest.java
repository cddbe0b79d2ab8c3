package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.core.rules.SafeTimeSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The peer protocol over real loopback HTTPS with mutual TLS, certificates generated in the test. */
class PeerProtocolTest {

    @TempDir
    Path dir;

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicReference<String> askedAbout = new AtomicReference<>();
    private PeerTls agents;
    private PeerServer server;
    private NodeAgentSettings settings;

    @BeforeEach
    void start() throws Exception {
        TestPki pki = TestPki.create("remedy node agents");
        agents = TestPki.load(pki.issue(dir.resolve("agents"), "remedy-node-agent"));
        settings = shortPeerTimeouts();
        server = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), agents, (node, boot) -> {
            askedAbout.set(node + "@" + boot.getEpochSecond());
            return node.equals("sick") ? PeerAnswer.UNHEALTHY : PeerAnswer.HEALTHY;
        }, executor);
    }

    /** The default settings with 2 s peer dial and request timeouts, so that a silent peer ends a test soon. */
    static NodeAgentSettings shortPeerTimeouts() {
        SafeTimeSettings t = SafeTimeSettings.ofDefaults();
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        return new NodeAgentSettings(new SafeTimeSettings(t.apiCheckInterval(), t.apiServerTimeout(), 3,
                t.decisionAllowance(), Duration.ofSeconds(2), Duration.ofSeconds(2), t.watchdogTimeout(),
                t.rebootDuration()), d.safeTime(), 1, d.peerPort(), d.failureDomainLabels(), true,
                d.watchdogDevice(), d.watchdogFallback(), d.sysrqTrigger(), true);
    }

    @AfterEach
    void stop() {
        server.close();
        executor.shutdownNow();
    }

    private PeerNode peer() {
        return new PeerNode("peer", Map.of(), Optional.of("127.0.0.1"));
    }

    private HttpsPeerClient client(PeerTls tls) {
        return new HttpsPeerClient(tls, settings, executor, p -> Optional.of(server.address()));
    }

    @Test
    @DisplayName("a peer with the agents' certificate asks and gets the answer of the peer's view, with its boot time")
    void answers() {
        assertThat(client(agents).ask(peer(), "worker-1", Instant.ofEpochSecond(42))).isEqualTo(PeerAnswer.HEALTHY);
        assertThat(askedAbout.get()).isEqualTo("worker-1@42");
        assertThat(client(agents).ask(peer(), "sick", Instant.EPOCH)).isEqualTo(PeerAnswer.UNHEALTHY);
    }

    @Test
    @DisplayName("a client whose certificate another CA signed (trusting the agents' CA) is refused: it learns nothing")
    void foreignClientRefused() throws Exception {
        Path rogueDir = TestPki.create("rogue").issue(dir.resolve("rogue"), "rogue");
        PeerTls rogue = PeerTls.load(rogueDir.resolve("tls.crt"), rogueDir.resolve("tls.key"),
                dir.resolve("agents").resolve("ca.crt"));
        assertThat(client(rogue).ask(peer(), "worker-1", Instant.EPOCH)).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(askedAbout.get()).isNull();
    }

    @Test
    @DisplayName("a server whose certificate another CA signed cannot declare a node unhealthy: no answer")
    void foreignServerIgnored() throws Exception {
        PeerTls rogue = TestPki.load(TestPki.create("rogue").issue(dir.resolve("rogue"), "rogue"));
        try (PeerServer liar = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), rogue,
                (node, boot) -> PeerAnswer.UNHEALTHY, executor)) {
            HttpsPeerClient c = new HttpsPeerClient(agents, settings, executor, p -> Optional.of(liar.address()));
            assertThat(c.ask(peer(), "worker-1", Instant.EPOCH)).isEqualTo(PeerAnswer.NO_ANSWER);
        }
    }

    @Test
    @DisplayName("a client without any certificate (anonymous, trusting any server) is refused: no answer comes")
    void anonymousRefused() throws Exception {
        javax.net.ssl.SSLContext trustAll = javax.net.ssl.SSLContext.getInstance("TLS");
        trustAll.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        }}, null);
        String got;
        try (var socket = (javax.net.ssl.SSLSocket) trustAll.getSocketFactory().createSocket(
                InetAddress.getLoopbackAddress(), server.address().getPort())) {
            socket.setSoTimeout(5_000);
            got = exchange(socket);
        }
        assertThat(got).doesNotContain("HTTP/1.1 200").doesNotContain("answer");
        assertThat(askedAbout.get()).isNull();
    }

    /** Sends a request and reads what comes back; a TLS alert or a closed connection ends it. */
    private static String exchange(javax.net.ssl.SSLSocket socket) {
        StringBuilder got = new StringBuilder();
        try {
            socket.startHandshake();
            socket.getOutputStream().write(("GET /v1/health?node=worker-1&bootTime=0 HTTP/1.1\r\nHost: x\r\n"
                    + "Connection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            byte[] buffer = new byte[512];
            for (int n; (n = socket.getInputStream().read(buffer)) > 0; ) {
                got.append(new String(buffer, 0, n, java.nio.charset.StandardCharsets.US_ASCII));
            }
        } catch (IOException refused) {
            got.append("(refused: ").append(refused.getClass().getSimpleName()).append(')');
        }
        return got.toString();
    }

    @Test
    @DisplayName("a peer that sends the headers and then holds the body: no answer once the timeouts have passed")
    void stalledBodyEndsAtTheTimeouts() throws Exception {
        SafeTimeSettings t = settings.timings();
        NodeAgentSettings quick = new NodeAgentSettings(new SafeTimeSettings(t.apiCheckInterval(),
                t.apiServerTimeout(), t.maxApiErrorThreshold(), t.decisionAllowance(), Duration.ofSeconds(1),
                Duration.ofSeconds(1), t.watchdogTimeout(), t.rebootDuration()), settings.safeTime(),
                settings.peerQuorum(), settings.peerPort(), settings.failureDomainLabels(),
                settings.spreadPeersAcrossDomains(), settings.watchdogDevice(), settings.watchdogFallback(),
                settings.sysrqTrigger(), settings.watchdogMagicClose());
        try (StallingBackend stalling = StallingBackend.start(agents.context())) {
            HttpsPeerClient c = new HttpsPeerClient(agents, quick, executor,
                    p -> Optional.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), stalling.port())));
            // a liveness bound, not a measurement: the peer holds the body until the test ends
            PeerAnswer got = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> c.ask(peer(), "worker-1", Instant.EPOCH),
                    "ask() did not return while the peer held its body");
            assertThat(got).isEqualTo(PeerAnswer.NO_ANSWER);
            assertThat(stalling.served()).as("the peer sent its headers").isEqualTo(1);
        }
    }

    @Test
    @DisplayName("a trusted peer's answer is read only up to 4 KiB and only about the asking node: a padded 'unhealthy'"
            + " or one about another node is no answer, the same answer small and about the node counts")
    void answerBoundedAndAboutTheAskingNode() throws Exception {
        String answer = "{\"node\":\"worker-1\",\"answer\":\"unhealthy\"";
        for (var c : List.of(Map.entry(answer + "}", PeerAnswer.UNHEALTHY),
                Map.entry(answer + ",\"pad\":\"" + "x".repeat(HttpsPeerClient.MAX_ANSWER_BYTES) + "\"}",
                        PeerAnswer.NO_ANSWER),
                Map.entry("{\"node\":\"worker-2\",\"answer\":\"unhealthy\"}", PeerAnswer.NO_ANSWER))) {
            try (StallingBackend peer = StallingBackend.answering(agents.context(), c.getKey())) {
                HttpsPeerClient client = new HttpsPeerClient(agents, settings, executor,
                        p -> Optional.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.port())));
                assertThat(client.ask(peer(), "worker-1", Instant.EPOCH)).as("%.60s", c.getKey())
                        .isEqualTo(c.getValue());
            }
        }
    }

    @Test
    @DisplayName("a peer that is not there: no answer within the dial timeout")
    void nobodyThere() throws IOException {
        InetSocketAddress closed;
        try (var socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
        }
        HttpsPeerClient c = new HttpsPeerClient(agents, settings, executor, p -> Optional.of(closed));
        assertThat(c.ask(peer(), "worker-1", Instant.EPOCH)).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(new HttpsPeerClient(agents, settings, executor, p -> Optional.empty())
                .ask(peer(), "worker-1", Instant.EPOCH)).isEqualTo(PeerAnswer.NO_ANSWER);
    }

    @Test
    @DisplayName("the TLS files are refused with the file named, never their content")
    void badFiles() throws IOException {
        Path bad = Files.writeString(dir.resolve("tls.key"), "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n");
        Path agentsDir = dir.resolve("agents");
        assertThatThrownBy(() -> PeerTls.load(agentsDir.resolve("tls.crt"), bad, agentsDir.resolve("ca.crt")))
                .isInstanceOf(IOException.class).hasMessageContaining("tls.key").hasMessageContaining("PKCS#8")
                .hasMessageNotContaining("AAAA");
        assertThatThrownBy(() -> PeerTls.load(bad, agentsDir.resolve("tls.key"), agentsDir.resolve("ca.crt")))
                .isInstanceOf(IOException.class).hasMessageContaining("not a PEM certificate");
    }

    @Test
    @DisplayName("renewed files (a new CA here) are taken at the next reload: the new CA's peers are answered, the old"
            + " CA's refused; unchanged files change nothing, and broken ones leave the previous in use")
    void reloadsRenewedFiles() throws Exception {
        Path mounted = dir.resolve("agents");
        Path copy = Files.createDirectories(dir.resolve("original"));
        for (String file : new String[] {"tls.crt", "tls.key", "ca.crt"}) {
            Files.copy(mounted.resolve(file), copy.resolve(file));
        }
        PeerTls original = TestPki.load(copy);
        assertThat(agents.reloadIfChanged()).as("files unchanged").isFalse();

        TestPki renewed = TestPki.create("renewed CA");
        renewed.issue(mounted, "remedy-node-agent");
        PeerTls next = TestPki.load(renewed.issue(dir.resolve("next"), "remedy-node-agent"));
        assertThat(client(next).ask(peer(), "sick", Instant.EPOCH)).as("before the reload")
                .isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(client(original).ask(peer(), "sick", Instant.EPOCH)).isEqualTo(PeerAnswer.UNHEALTHY);

        assertThat(agents.reloadIfChanged()).isTrue();

        assertThat(client(next).ask(peer(), "sick", Instant.EPOCH)).isEqualTo(PeerAnswer.UNHEALTHY);
        askedAbout.set(null);
        assertThat(client(original).ask(peer(), "sick", Instant.EPOCH)).as("the old CA's peer, after the reload")
                .isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(askedAbout.get()).as("refused by the server too, even on a resumed TLS session").isNull();

        Files.writeString(mounted.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        assertThatThrownBy(agents::reloadIfChanged).isInstanceOf(IOException.class)
                .hasMessageNotContaining("AAAA");
        assertThat(client(next).ask(peer(), "worker-1", Instant.EPOCH)).as("the previous files stay in use")
                .isEqualTo(PeerAnswer.HEALTHY);
    }

}
