package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.fence.kube.nodeagent.internal.PeerPki;
import dev.remedy.core.rules.SafeTimeSettings;
import dev.remedy.nodeagent.internal.PeerWire;
import dev.remedy.simulators.PeerCommand;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.nginx.NginxProcess;
import dev.remedy.spi.TimeSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agents' peer protocol (HTTPS with mutual TLS, {@link PeerServer}, {@link HttpsPeerClient}, {@link PeerTls})
 * against TLS stacks we did not write, on 127.0.0.1, with the certificates of {@link TestPki} in the Secret's three
 * files:
 * <ul>
 *   <li>curl (OpenSSL) asks our {@link PeerServer}, which answers from a {@link NodeAgent}'s view: with the
 *       agents' certificate it gets the view's answer (healthy, unhealthy, API error), checking the server's
 *       certificate against the CA (and refusing it when trusting another CA); without a client certificate, or with
 *       one another CA signed, over TLS 1.3 and 1.2, it gets nothing and the agent is never asked. (The JDK's server
 *       then closes the TLS 1.3 connection without an alert: curl says "empty reply", exit code 52.)</li>
 *   <li>Our {@link HttpsPeerClient} asks nginx ({@link NginxProcess}, {@code ssl_verify_client on} with the agents'
 *       CA) serving the exact bodies our server writes ({@link PeerWire#body}) for the exact query our client sends:
 *       it reads each answer, and nginx's log shows it verified our certificate; an error status (even with an
 *       "unhealthy" body), a 404 or an unknown answer is no answer; nginx requiring a client certificate of another
 *       CA, or presenting a server certificate of another CA, gets no answer; nginx holding the request (proxied to a
 *       socket that never replies), or sending the headers and holding the body ({@link StallingBackend}), gets no
 *       answer once the client's timeouts have passed, long before nginx's own 60 s.</li>
 *   <li>{@code openssl verify -purpose sslserver} and {@code sslclient} accept the certificates the tests issue;
 *       the README's openssl recipe for the Secret makes files our agents load and use, and curl accepts.</li>
 * </ul>
 * Not covered: no real kubelet or kube-apiserver (the view is {@link FakeClusterView}; {@link KubeClusterViewTest}
 * covers the API side on fabric8's mock server), no real {@code /dev/watchdog} (see {@link DeviceWatchdogTest}),
 * certificates made by cert-manager (the deploy files' issuer) are not tried, and the client does not check that an
 * answer names the node it asked about (nginx here answers with the right name). Skipped with the missing program and
 * its package named when curl, nginx or openssl is missing (failed in CI, see {@link PeerPrograms}).
 */
class PeerProtocolIT {

    private static final String HOST = "remedy-node-agent";
    private static final Instant BOOT = Instant.ofEpochSecond(1_700_000_042L);
    private static final Duration CURL_TIMEOUT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** curl's default (TLS 1.3 with this server) and TLS 1.2, both of which the agents offer. */
    private static final List<List<String>> TLS_VERSIONS = List.of(List.of(), List.of("--tls-max", "1.2"));

    @TempDir
    static Path dir;

    private static final ExecutorService EXECUTOR = Executors.newCachedThreadPool();
    private static final FakeClusterView VIEW = new FakeClusterView();
    private static final List<String> ASKED = Collections.synchronizedList(new ArrayList<>());
    private static Path agents;
    private static Path rogue;
    private static NodeAgent agent;
    private static PeerServer server;
    private static NodeAgentSettings settings;
    private static NginxProcess nginx;
    private static ServerSocket silent;
    private static StallingBackend stalling;

    @BeforeAll
    static void start() throws Exception {
        agents = TestPki.create("remedy node agents").issue(dir.resolve("agents"), HOST);
        rogue = TestPki.create("rogue").issue(dir.resolve("rogue"), HOST);
        VIEW.node("worker-1", Map.of()).node("sick-node", Map.of());
        VIEW.remediate("sick-node");
        settings = PeerProtocolTest.shortPeerTimeouts();
        agent = NodeAgent.builder().node("worker-2").settings(settings).view(VIEW)
                .peers((peer, self, boot) -> PeerAnswer.NO_ANSWER)
                .watchdog(new FakeWatchdog(TimeSource.system(), Duration.ofSeconds(60)))
                .bootTime(Instant.EPOCH).executor(EXECUTOR).build();
        server = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), TestPki.load(agents),
                (node, boot) -> {
                    ASKED.add(node + "@" + boot.getEpochSecond());
                    return agent.answer(node, boot);
                }, EXECUTOR);
    }

    @AfterAll
    static void stop() throws IOException {
        if (nginx != null) {
            nginx.close();
        }
        if (silent != null) {
            silent.close();
        }
        if (stalling != null) {
            stalling.close();
        }
        if (server != null) {
            server.close();
        }
        EXECUTOR.shutdownNow();
        if (nginx != null) {
            assertThat(nginx.alive()).as("nginx (pid " + nginx.pid() + ") stopped").isFalse();
        }
    }

    @BeforeEach
    void clear() {
        ASKED.clear();
        VIEW.down(false);
    }

    // --- curl against our PeerServer -------------------------------------------------------------------------

    @Test
    @DisplayName("curl with the agents' certificate gets the answer of the server's view: healthy, unhealthy, API "
            + "error")
    void curlGetsTheViewsAnswer() throws Exception {
        PeerPrograms.require("curl", "curl");
        assertThat(curlAnswer("worker-1")).isEqualTo(JSON.readTree("{\"node\":\"worker-1\",\"answer\":\"healthy\"}"));
        assertThat(agent.answer("worker-1", BOOT)).isEqualTo(PeerAnswer.HEALTHY);
        assertThat(curlAnswer("sick-node"))
                .isEqualTo(JSON.readTree("{\"node\":\"sick-node\",\"answer\":\"unhealthy\"}"));
        assertThat(agent.answer("sick-node", BOOT)).isEqualTo(PeerAnswer.UNHEALTHY);
        VIEW.down(true);
        assertThat(curlAnswer("worker-1")).isEqualTo(JSON.readTree("{\"node\":\"worker-1\",\"answer\":\"api-error\"}"));
        assertThat(ASKED).as("the server was asked with curl's node and boot time").containsOnly(
                "worker-1@" + BOOT.getEpochSecond(), "sick-node@" + BOOT.getEpochSecond());
    }

    @Test
    @DisplayName("curl without a client certificate is refused in TLS: no answer, the agent is never asked")
    void curlWithoutCertificateRefused() throws InterruptedException {
        PeerPrograms.require("curl", "curl");
        for (List<String> tls : TLS_VERSIONS) {
            assertRefused(curl("sick-node", tls));
        }
    }

    @Test
    @DisplayName("curl with a certificate another CA signed is refused in TLS: no answer, the agent is never asked")
    void curlWithForeignCertificateRefused() throws InterruptedException {
        PeerPrograms.require("curl", "curl");
        for (List<String> tls : TLS_VERSIONS) {
            List<String> options = new ArrayList<>(tls);
            options.addAll(List.of("--cert", rogue.resolve("tls.crt").toString(), "--key",
                    rogue.resolve("tls.key").toString()));
            assertRefused(curl("sick-node", options));
        }
    }

    @Test
    @DisplayName("curl refuses our server when it trusts another CA: the server's certificate is checked by OpenSSL")
    void curlChecksTheServersCertificate() throws InterruptedException {
        PeerPrograms.require("curl", "curl");
        PeerCommand.Result result = PeerCommand.of(CURL_TIMEOUT, "curl", "-sS", "--max-time", "10", "--cacert",
                rogue.resolve("ca.crt").toString(), "--cert", agents.resolve("tls.crt").toString(), "--key",
                agents.resolve("tls.key").toString(), "--resolve", HOST + ":" + server.address().getPort()
                        + ":127.0.0.1", url(server.address().getPort(), "sick-node")).run();
        assertThat(result.exitCode()).as(result.output()).isEqualTo(60); // CURLE_PEER_FAILED_VERIFICATION
        assertThat(ASKED).isEmpty();
    }

    private static JsonNode curlAnswer(String node) throws Exception {
        PeerCommand.Result result = curl(node, List.of("--cert", agents.resolve("tls.crt").toString(), "--key",
                agents.resolve("tls.key").toString()));
        assertThat(result.exitCode()).as("curl: " + result.output()).isZero();
        List<String> lines = result.output().lines().toList();
        assertThat(lines).as(result.output()).hasSize(2);
        assertThat(lines.get(1)).as("HTTP status").isEqualTo("200");
        return JSON.readTree(lines.get(0));
    }

    /**
     * curl asking our server about {@code node}, verifying the server's certificate against the agents' CA; the
     * certificate names the host {@value #HOST} (its common name, no subject alternative name), which
     * {@code --resolve} maps to 127.0.0.1.
     */
    private static PeerCommand.Result curl(String node, List<String> clientCertificate) throws InterruptedException {
        int port = server.address().getPort();
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "--cacert",
                agents.resolve("ca.crt").toString(), "--resolve", HOST + ":" + port + ":127.0.0.1", "-w",
                "\\n%{http_code}"));
        command.addAll(clientCertificate);
        command.add(url(port, node));
        return new PeerCommand(command, Map.of(), "", CURL_TIMEOUT).run();
    }

    private static String url(int port, String node) {
        return "https://" + HOST + ":" + port + PeerWire.PATH + "?" + PeerWire.query(node, BOOT);
    }

    private static void assertRefused(PeerCommand.Result result) {
        // 35: the handshake failed (TLS 1.2: the client certificate is checked within it); with TLS 1.3 curl's side of
        // the handshake ends before the server checks the certificate, and the JDK's server then closes the
        // connection: 52, no reply (56 if an alert arrives first)
        assertThat(result.exitCode()).as("curl: " + result.output()).isIn(35, 52, 56);
        assertThat(result.output()).doesNotContain("answer").doesNotContain("unhealthy");
        assertThat(ASKED).as("nobody asked the agent").isEmpty();
    }

    // --- our HttpsPeerClient against nginx -------------------------------------------------------------------

    /** Ports: 0 requires the agents' CA, 1 requires another CA's client certificate, 2 presents another CA's
     *  certificate, 3 holds the request (proxied to a socket that never replies), 4 sends the headers and the
     *  start of the body, then holds the rest (proxied to {@link StallingBackend}). */
    private static synchronized NginxProcess nginx() throws IOException {
        if (nginx == null) {
            silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Path logs = dir.resolve("nginx/logs");
            stalling = StallingBackend.start();
            nginx = NginxProcess.start(dir.resolve("nginx"), 5, ports -> String.join("\n",
                    "  log_format peer '$status $ssl_client_verify \"$request\"';",
                    "  default_type application/json;",
                    "  map $args $peer_answer {",
                    "    default \"\";",
                    "    " + key("worker-1") + " '" + PeerWire.body("worker-1", PeerAnswer.HEALTHY) + "';",
                    "    " + key("sick-node") + " '" + PeerWire.body("sick-node", PeerAnswer.UNHEALTHY) + "';",
                    "    " + key("cut-off") + " '" + PeerWire.body("cut-off", PeerAnswer.API_ERROR) + "';",
                    "    " + key("odd-node") + " '{\"node\":\"odd-node\",\"answer\":\"maybe\"}';",
                    "    " + key("confused-node") + " '" + PeerWire.body("worker-1", PeerAnswer.UNHEALTHY) + "';",
                    "  }",
                    server(ports.get(0), agents, agents, logs.resolve("trusted.log"), answers()),
                    server(ports.get(1), agents, rogue, logs.resolve("foreign-ca.log"), answers()),
                    server(ports.get(2), rogue, agents, logs.resolve("rogue-server.log"), answers()),
                    server(ports.get(3), agents, agents, logs.resolve("silent.log"),
                            "proxy_pass http://127.0.0.1:" + silent.getLocalPort() + "; proxy_read_timeout 60s;"),
                    server(ports.get(4), agents, agents, logs.resolve("stalling.log"),
                            "proxy_pass http://127.0.0.1:" + stalling.port() + "; proxy_read_timeout 60s; "
                                    + "proxy_buffering off;")));
        }
        return nginx;
    }

    private static String key(String node) {
        return "'" + PeerWire.query(node, BOOT) + "'";
    }

    private static String answers() {
        return "if ($arg_node = \"broken-node\") { return 500 '" + PeerWire.body("broken-node", PeerAnswer.UNHEALTHY)
                + "'; } if ($peer_answer = \"\") { return 404 '{\"error\":\"not found\"}'; } return 200 $peer_answer;";
    }

    private static String server(int port, Path certificate, Path clientCa, Path accessLog, String health) {
        return String.join("\n",
                "  server {",
                "    listen 127.0.0.1:" + port + " ssl;",
                "    ssl_protocols TLSv1.2 TLSv1.3;",
                "    ssl_certificate " + certificate.resolve("tls.crt") + ";",
                "    ssl_certificate_key " + certificate.resolve("tls.key") + ";",
                "    ssl_client_certificate " + clientCa.resolve("ca.crt") + ";",
                "    ssl_verify_client on;",
                "    access_log " + accessLog + " peer;",
                "    location = " + PeerWire.PATH + " { " + health + " }",
                "  }");
    }

    private static PeerAnswer ask(int port, String node) throws IOException {
        return ask(port, node, settings);
    }

    private static PeerAnswer ask(int port, String node, NodeAgentSettings with) throws IOException {
        HttpsPeerClient client = new HttpsPeerClient(TestPki.load(agents), with, EXECUTOR,
                peer -> Optional.of(new InetSocketAddress("127.0.0.1", port)));
        return client.ask(new PeerNode("nginx", Map.of(), Optional.of("127.0.0.1")), node, BOOT);
    }

    private static List<String> accessLog(String name) throws IOException {
        return Files.readAllLines(dir.resolve("nginx/logs").resolve(name));
    }

    @Test
    @DisplayName("our client reads each answer nginx gives for the query it sends; nginx verified its certificate")
    void clientReadsNginxAnswers() throws IOException {
        int port = nginx().ports().get(0);
        assertThat(ask(port, "worker-1")).isEqualTo(PeerAnswer.HEALTHY);
        assertThat(ask(port, "sick-node")).isEqualTo(PeerAnswer.UNHEALTHY);
        assertThat(ask(port, "cut-off")).isEqualTo(PeerAnswer.API_ERROR);
        assertThat(accessLog("trusted.log")).contains(
                "200 SUCCESS \"GET " + PeerWire.PATH + "?" + PeerWire.query("worker-1", BOOT) + " HTTP/1.1\"",
                "200 SUCCESS \"GET " + PeerWire.PATH + "?" + PeerWire.query("sick-node", BOOT) + " HTTP/1.1\"");
    }

    @Test
    @DisplayName("an error status (even with an 'unhealthy' body), a 404, an unknown answer or an answer about another"
            + " node from nginx is no answer")
    void clientTreatsOtherResponsesAsNoAnswer() throws IOException {
        int port = nginx().ports().get(0);
        assertThat(ask(port, "broken-node")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(ask(port, "unknown-node")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(ask(port, "odd-node")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(ask(port, "confused-node")).as("'unhealthy', but about worker-1").isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(accessLog("trusted.log")).anyMatch(line -> line.startsWith("500 SUCCESS"))
                .anyMatch(line -> line.startsWith("404 SUCCESS"));
    }

    @Test
    @DisplayName("nginx requiring a client certificate of another CA: our client gets no answer, never healthy or "
            + "unhealthy")
    void nginxRequiringAnotherCaGivesNoAnswer() throws IOException {
        int port = nginx().ports().get(1);
        assertThat(ask(port, "worker-1")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(ask(port, "sick-node")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(accessLog("foreign-ca.log")).isNotEmpty().noneMatch(line -> line.startsWith("200"));
    }

    @Test
    @DisplayName("nginx presenting a certificate of another CA: our client refuses it before sending the request")
    void nginxWithAnotherCasCertificateRefused() throws IOException {
        int port = nginx().ports().get(2);
        assertThat(ask(port, "sick-node")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(ask(port, "worker-1")).isEqualTo(PeerAnswer.NO_ANSWER);
        assertThat(accessLog("rogue-server.log")).as("no request reached nginx").isEmpty();
    }

    @Test
    @DisplayName("nginx holding the request: our client gives up with no answer at its request timeout")
    void nginxHoldingTheRequestTimesOut() throws IOException {
        int port = nginx().ports().get(3);
        long start = System.nanoTime();
        assertThat(ask(port, "worker-1", quick())).isEqualTo(PeerAnswer.NO_ANSWER);
        // bounded: far below nginx's 60 s proxy timeout, so it was the client's own timeout that ended it
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    @DisplayName("nginx sending the headers and then holding the body: our client gives up at its request timeout")
    void nginxHoldingTheBodyTimesOut() throws IOException {
        int port = nginx().ports().get(4);
        long start = System.nanoTime();
        assertThat(ask(port, "worker-1", quick())).isEqualTo(PeerAnswer.NO_ANSWER);
        // bounded: far below nginx's 60 s proxy timeout, so it was the client's own timeout that ended it
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(stalling.served()).as("the request reached the backend").isPositive();
    }

    /** The settings with a request timeout of 1 s. */
    private static NodeAgentSettings quick() {
        SafeTimeSettings t = settings.timings();
        return new NodeAgentSettings(new SafeTimeSettings(t.apiCheckInterval(), t.apiServerTimeout(),
                t.maxApiErrorThreshold(), t.decisionAllowance(), t.peerDialTimeout(), Duration.ofSeconds(1),
                t.watchdogTimeout(), t.rebootDuration()), settings.safeTime(), settings.peerQuorum(),
                settings.peerPort(), settings.failureDomainLabels(), settings.spreadPeersAcrossDomains(),
                settings.watchdogDevice(), settings.watchdogFallback(), settings.sysrqTrigger(),
                settings.watchdogMagicClose());
    }

    // --- the README's recipe for the Secret, made by openssl --------------------------------------------------

    @Test
    @DisplayName("the README's openssl recipe makes files our agents load, ask and answer with, and curl accepts")
    void readmeRecipeWorks() throws Exception {
        PeerPrograms.require("openssl", "openssl");
        PeerPrograms.require("curl", "curl");
        Path made = Files.createDirectories(dir.resolve("readme-recipe"));
        List<String> recipe = readmeRecipe();
        PeerCommand.Result ran = PeerCommand.of(Duration.ofSeconds(60), "bash", "-euc",
                "cd \"$0\"\n" + String.join("\n", recipe), made.toString()).run();
        assertThat(ran.exitCode()).as(String.join("\n", recipe) + "\n" + ran.output()).isZero();
        PeerTls tls = PeerTls.load(made.resolve("tls.crt"), made.resolve("tls.key"), made.resolve("ca.crt"));
        try (PeerServer readmeServer = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                tls, agent::answer, EXECUTOR)) {
            int port = readmeServer.address().getPort();
            HttpsPeerClient client = new HttpsPeerClient(tls, settings, EXECUTOR,
                    peer -> Optional.of(readmeServer.address()));
            assertThat(client.ask(new PeerNode("peer", Map.of(), Optional.of("127.0.0.1")), "sick-node", BOOT))
                    .isEqualTo(PeerAnswer.UNHEALTHY);
            PeerCommand.Result curl = PeerCommand.of(CURL_TIMEOUT, "curl", "-sS", "--max-time", "10", "--cacert",
                    made.resolve("ca.crt").toString(), "--cert", made.resolve("tls.crt").toString(), "--key",
                    made.resolve("tls.key").toString(), "--resolve", HOST + ":" + port + ":127.0.0.1",
                    url(port, "worker-1")).run();
            assertThat(curl.exitCode()).as(curl.output()).isZero();
            assertThat(JSON.readTree(curl.output()))
                    .isEqualTo(JSON.readTree("{\"node\":\"worker-1\",\"answer\":\"healthy\"}"));
            // the agents refuse a client of the test CA: the recipe's CA is the only one trusted
            assertThat(new HttpsPeerClient(TestPki.load(agents), settings, EXECUTOR,
                    peer -> Optional.of(readmeServer.address()))
                    .ask(new PeerNode("peer", Map.of(), Optional.of("127.0.0.1")), "sick-node", BOOT))
                    .isEqualTo(PeerAnswer.NO_ANSWER);
        }
    }

    /** The README's commands that make the Secret's files by hand (its {@code openssl} and {@code printf} lines). */
    private static List<String> readmeRecipe() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int start = lines.indexOf("openssl ecparam -name prime256v1 -genkey -noout -out ca.key");
        assertThat(start).as("README.md has the by-hand recipe for the peers' Secret").isNotNegative();
        List<String> recipe = new ArrayList<>();
        for (String line : lines.subList(start, lines.size())) {
            if (line.startsWith("```")) {
                break;
            }
            if (line.startsWith("openssl ") || line.startsWith("printf ")) {
                recipe.add(line);
            }
        }
        return recipe;
    }

    // --- openssl verify of the test certificates -------------------------------------------------------------

    @Test
    @DisplayName("openssl verify accepts the issued certificate for TLS servers and clients; another CA's is refused")
    void opensslAcceptsTheCertificates() throws InterruptedException {
        PeerPrograms.require("openssl", "openssl");
        for (String purpose : List.of("sslserver", "sslclient")) {
            PeerCommand.Result ok = openssl(purpose, agents.resolve("ca.crt"), agents.resolve("tls.crt"));
            assertThat(ok.exitCode()).as(purpose + ": " + ok.output()).isZero();
            assertThat(ok.output()).isEqualTo(agents.resolve("tls.crt") + ": OK");
            PeerCommand.Result foreign = openssl(purpose, agents.resolve("ca.crt"), rogue.resolve("tls.crt"));
            assertThat(foreign.exitCode()).as(purpose + ": " + foreign.output()).isNotZero();
        }
    }

    @Test
    @DisplayName("the operator's certificates (as PeerCertificates issues them): openssl verify accepts them for TLS"
            + " servers and clients, and curl presenting them is answered by our server trusting the operator's CA")
    void operatorsCertificatesAccepted() throws Exception {
        PeerPrograms.require("openssl", "openssl");
        PeerPrograms.require("curl", "curl");
        Instant now = Instant.now();
        PeerPki.Authority ca = PeerPki.authority("remedy-node-agent-ca", now, Duration.ofDays(3650));
        PeerPki.Issued issued = PeerPki.issue(ca, "remedy-node-agent", now, Duration.ofDays(365));
        Path made = Files.createDirectories(dir.resolve("operator"));
        Files.writeString(made.resolve("ca.crt"), PeerPki.pem(ca.certificate()));
        Files.writeString(made.resolve("tls.crt"), PeerPki.pem(issued.certificate()));
        Files.writeString(made.resolve("tls.key"), PeerPki.pem(issued.key()));
        for (String purpose : List.of("sslserver", "sslclient")) {
            PeerCommand.Result ok = openssl(purpose, made.resolve("ca.crt"), made.resolve("tls.crt"));
            assertThat(ok.exitCode()).as(purpose + ": " + ok.output()).isZero();
            assertThat(ok.output()).isEqualTo(made.resolve("tls.crt") + ": OK");
        }
        PeerTls tls = TestPki.load(made);
        try (PeerServer operators = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), tls,
                agent::answer, EXECUTOR)) {
            int port = operators.address().getPort();
            PeerCommand.Result curl = PeerCommand.of(CURL_TIMEOUT, "curl", "-sS", "--max-time", "10", "--cacert",
                    made.resolve("ca.crt").toString(), "--cert", made.resolve("tls.crt").toString(), "--key",
                    made.resolve("tls.key").toString(), "--resolve", HOST + ":" + port + ":127.0.0.1",
                    url(port, "sick-node")).run();
            assertThat(curl.exitCode()).as(curl.output()).isZero();
            assertThat(JSON.readTree(curl.output()))
                    .isEqualTo(JSON.readTree("{\"node\":\"sick-node\",\"answer\":\"unhealthy\"}"));
        }
    }

    private static PeerCommand.Result openssl(String purpose, Path ca, Path certificate) throws InterruptedException {
        return PeerCommand.of(Duration.ofSeconds(20), "openssl", "verify", "-purpose", purpose, "-CAfile",
                ca.toString(), certificate.toString()).run();
    }
}
