package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.store.NodeFenceCrd;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@DisplayName("remedy operator")
class OperatorCommandTest {

    private static final String TOKEN = "kubeconfig-token-never-printed";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    @DisplayName("--help says what it does, what the cluster needs, and the Deployment's options")
    void help() {
        CliRunner.Result result = new CliRunner().run("operator", "--help");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.out()).contains("Kubernetes operator", "NodeFence", "Lease", "deploy/crds/",
                "deploy/00-namespace.yaml", "deploy/20-rbac.yaml", "deploy/40-deployment.yaml", "remedy-policies",
                "policies.yaml", "fence.yaml", "{secret: {name: NAME, key: KEY}}", "remedy check", "/healthz", "/readyz", "/metrics",
                "default: 127.0.0.1:8080", "default: remedy)");
        // deploy/40-deployment.yaml passes these: each must be an option
        assertThat(result.out()).contains("--namespace=NAME", "--identity=NAME", "--policies-configmap=NAME",
                "--fence-configmap=NAME", "--http-address=HOST:PORT", "--kubeconfig=FILE", "--shard=NAME",
                "--node-selector=KEY=VALUE");
    }

    @Test
    @DisplayName("the Deployment's arguments parse")
    void deploymentArguments() {
        OperatorCommand command = new OperatorCommand();
        new CommandLine(command).parseArgs("--namespace=remedy", "--identity=remedy-abc", "--policies-configmap="
                + "remedy-policies", "--fence-configmap=remedy-fence", "--http-address=0.0.0.0:8080");

        assertThat(OperatorOptions.address("0.0.0.0:8080")).isEqualTo(new InetSocketAddress("0.0.0.0", 8080));
    }

    @Test
    @DisplayName("a bad --http-address is exit 3 with one line naming it and the form wanted")
    void badHttpAddress() {
        for (String bad : List.of("8080", "localhost", "127.0.0.1:", "127.0.0.1:65536", ":8080", "127.0.0.1:http",
                "no-such-host.invalid:8080")) {
            CliRunner.Result result = new CliRunner().run("operator", "--http-address", bad);

            assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(result.errLines()).as(bad).singleElement().asString()
                    .startsWith("remedy: bad --http-address '" + bad + "'");
        }
        assertThat(OperatorOptions.address("[::1]:0").getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    @DisplayName("a bad --node-selector is exit 3 with one line naming the term and the form wanted")
    void badSelector() {
        for (String bad : List.of("role", "role!=worker", "=worker", "bad key=x", "zone=a b", "-zone=a",
                "Example.COM/zone=a", "zone=a,zone=b", "zone=a,")) {
            CliRunner.Result result = new CliRunner().run("operator", "--node-selector", bad);

            assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(result.errLines()).as(bad).singleElement().asString()
                    .startsWith("remedy: bad --node-selector '" + bad + "'");
        }
    }

    @Test
    @DisplayName("label selectors: prefixed keys, empty values, several terms")
    void selectors() {
        assertThat(OperatorOptions.selector("node-role.kubernetes.io/worker=,topology.kubernetes.io/zone=zone-a"))
                .containsExactly(Map.entry("node-role.kubernetes.io/worker", ""),
                        Map.entry("topology.kubernetes.io/zone", "zone-a"));
        assertThat(OperatorOptions.selector(null)).isEmpty();
    }

    @Test
    @DisplayName("a missing or invalid kubeconfig is exit 3, naming the file, never its content")
    void badKubeconfig() throws IOException {
        Path missing = dir.resolve("missing");
        CliRunner.Result absent = new CliRunner().run("operator", "--kubeconfig", missing.toString());
        assertThat(absent.exitCode()).as(absent.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(absent.errLines()).singleElement().asString()
                .startsWith("remedy: cannot read kubeconfig " + missing + ": no such file");

        Path garbage = Files.writeString(dir.resolve("garbage"), "users: [{name: x, user: {token: " + TOKEN
                + "}}\nclusters: {{{");
        CliRunner.Result invalid = new CliRunner().run("operator", "--kubeconfig", garbage.toString());
        assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(invalid.errLines()).singleElement().asString()
                .startsWith("remedy: cannot read kubeconfig " + garbage + ": not a valid kubeconfig");
        assertThat(invalid.printed()).doesNotContain(TOKEN);

        Path noContext = Files.writeString(dir.resolve("no-context"), """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]
                users: [{name: u, user: {token: %s}}]
                """.formatted(TOKEN));
        CliRunner.Result contextless = new CliRunner().run("operator", "--kubeconfig", noContext.toString());
        assertThat(contextless.exitCode()).as(contextless.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(contextless.errLines()).singleElement().asString()
                .startsWith("remedy: cannot read kubeconfig " + noContext + ": it names no current context");
        assertThat(contextless.printed()).doesNotContain(TOKEN);
    }

    @Test
    @DisplayName("an --http-address in use is exit 3 with one line saying so, before the operator starts")
    void addressInUse() throws IOException {
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]
                users: [{name: u, user: {token: %s}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                current-context: c
                """.formatted(TOKEN));
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();

            CliRunner.Result result = new CliRunner().run("operator", "--kubeconfig", kubeconfig.toString(),
                    "--http-address", address);

            assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(result.errLines()).singleElement().asString().startsWith("remedy: cannot listen on ")
                    .contains(String.valueOf(taken.getLocalPort())).contains("--http-address");
            assertThat(result.out()).isEmpty();
        }
    }

    @Test
    @DisplayName("against an API server: serves /healthz, /readyz and /metrics, leads, and hands the Lease over on stop")
    void runsAgainstAnApiServer() throws Exception {
        try (MockApiServer api = MockApiServer.start()) {
            KubernetesClient client = api.client();
            prepare(client);
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: mock, cluster: {server: "%s"}}]
                    users: [{name: operator, user: {token: %s}}]
                    contexts: [{name: mock, context: {cluster: mock, user: operator}}]
                    current-context: mock
                    """.formatted(api.url(), TOKEN));
            OperatorCommand command = new OperatorCommand();
            CommandLine.IFactory factory = new CommandLine.IFactory() {
                @Override
                @SuppressWarnings("unchecked")
                public <K> K create(Class<K> type) throws Exception {
                    return type == OperatorCommand.class ? (K) command : CommandLine.defaultFactory().create(type);
                }
            };
            CliRunner cli = new CliRunner();
            CompletableFuture<CliRunner.Result> run = CompletableFuture.supplyAsync(() -> cli.run(factory,
                    "operator", "--kubeconfig", kubeconfig.toString(), "--identity", "test-replica",
                    "--http-address", "127.0.0.1:0", "--node-selector", "pool=workers"));

            InetSocketAddress address = command.awaitStarted(WAIT);
            assertThat(address).as("started within %s; %s", WAIT, run.isDone() ? run.join() : "running").isNotNull();
            HttpClient http = HttpClient.newHttpClient();
            URI base = URI.create("http://127.0.0.1:" + address.getPort());
            assertThat(get(http, base.resolve("/healthz")).statusCode()).isEqualTo(200);
            awaitStatus(http, base.resolve("/readyz"), 200);
            HttpResponse<String> metrics = get(http, base.resolve("/metrics"));
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                    .startsWith("text/plain"));
            assertThat(metrics.body()).contains("remedy_nodes_tracked", "jvm_memory_used_bytes");
            assertThat(client.leases().inNamespace("remedy").withName("remedy-default").get().getSpec())
                    .satisfies(lease -> assertThat(lease.getHolderIdentity()).isEqualTo("test-replica"))
                    .satisfies(lease -> assertThat(lease.getLeaseDurationSeconds()).isEqualTo(15));

            command.stop();
            CliRunner.Result result = run.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.OK);
            assertThat(result.outLines()).first().asString().startsWith("remedy operator test-replica started: shard "
                    + "default (nodes labelled pool=workers), Lease remedy/remedy-default")
                    .endsWith("/metrics, /healthz and /readyz on http://127.0.0.1:" + address.getPort());
            assertThat(result.outLines()).element(1).asString().isEqualTo("remedy operator test-replica stopping: "
                    + "handing the Lease over");
            assertThat(result.outLines()).last().asString().contains("stopped: Lease handed over");
            assertThat(result.printed()).doesNotContain(TOKEN).doesNotContain("bmc-password-never-printed");
            // fabric8's LeaderElector releases as client-go does: the Lease lapses at once (1 s), so a standby takes it
            assertThat(client.leases().inNamespace("remedy").withName("remedy-default").get().getSpec()
                    .getLeaseDurationSeconds()).as("released").isEqualTo(1);
        }
    }

    private static void prepare(KubernetesClient client) {
        NodeFenceCrd.apply(client);
        for (String namespace : List.of("remedy", "medik8s-leases", "default")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
        }
        client.configMaps().inNamespace("remedy").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-policies").endMetadata().withData(Map.of("policies.yaml", """
                        policies:
                          - name: workers
                            unhealthyConditions: [{type: Ready, status: "False", duration: 300s}]
                            escalation: [{name: fence, fence: {}, timeout: 10m}]
                        """)).build()).create();
        client.configMaps().inNamespace("remedy").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-fence").endMetadata().withData(Map.of("fence.yaml", """
                        templates:
                          bmc:
                            agent: fake
                            parameters: {username: admin}
                            secrets: {password: {secret: {name: bmc, key: pw}}}
                        topologies:
                          - name: default
                            power_management: {timeout: 60s, levels: [[bmc]]}
                        nodes:
                          worker-1: {bmc: {plug: worker-1}}
                        """)).build()).create();
        client.secrets().inNamespace("remedy").resource(new SecretBuilder().withNewMetadata().withName("bmc")
                .endMetadata().withData(Map.of("pw", Base64.getEncoder().encodeToString(
                        "bmc-password-never-printed".getBytes(StandardCharsets.UTF_8)))).build()).create();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("worker-1")
                .withLabels(Map.of("pool", "workers")).endMetadata().withNewStatus().addNewCondition().withType("Ready")
                .withStatus("True").withLastTransitionTime(Instant.now().toString()).endCondition().endStatus()
                .build()).create();
    }

    private static HttpResponse<String> get(HttpClient http, URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitStatus(HttpClient http, URI uri, int status) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int last = get(http, uri).statusCode();
        while (last != status && System.nanoTime() < deadline) {
            Thread.sleep(50);
            last = get(http, uri).statusCode();
        }
        assertThat(last).as("%s within %s", uri, WAIT).isEqualTo(status);
    }
}
