package dev.remedy.benchmarks;

import dev.remedy.fence.kube.store.NodeFenceCrd;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * fabric8's mock API server in CRUD mode, in this JVM on 127.0.0.1, with a dispatcher that counts every request it
 * receives by method and path (query and object names kept), except the benchmark's own (by User-Agent), and the objects the operator needs: the NodeFence CRD,
 * its namespaces, its two ConfigMaps and the BMC Secret.
 */
final class KubeCluster implements AutoCloseable {

    /** The operator's namespace; its shard Lease is there. */
    static final String NAMESPACE = "remedy";
    /** The BMC password, in the Secret {@code bmc}, key {@code pw}. */
    static final String PASSWORD = "kube-bench-pw";
    /** The User-Agent of the benchmark's own client: its requests are not counted. */
    static final String DRIVER = "remedy-benchmark-driver";

    private final CountingDispatcher dispatcher = new CountingDispatcher();
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final KubernetesClient operatorClient;

    private KubeCluster() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("the mock API server did not start on 127.0.0.1", e);
        }
        client = server.createClient(builder -> builder.editOrNewConfig().withUserAgent(DRIVER).endConfig());
        operatorClient = server.createClient();
    }

    /** A started mock server with the CRD, the namespaces, and the operator's ConfigMaps and Secret. */
    static KubeCluster start(String policiesYaml, String fenceYaml) {
        KubeCluster cluster = new KubeCluster();
        KubernetesClient client = cluster.client;
        NodeFenceCrd.apply(client);
        for (String namespace : List.of(NAMESPACE, "medik8s-leases", "default")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
        }
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-policies").endMetadata().withData(Map.of("policies.yaml", policiesYaml)).build())
                .create();
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-fence").endMetadata().withData(Map.of("fence.yaml", fenceYaml)).build()).create();
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("bmc")
                .endMetadata().withData(Map.of("pw", Base64.getEncoder().encodeToString(
                        PASSWORD.getBytes(StandardCharsets.UTF_8)))).build()).create();
        return cluster;
    }

    /** The benchmark's own client (setup, node changes, polls): its requests are not counted. */
    KubernetesClient client() {
        return client;
    }

    /** The client to give the operator: its requests are counted. */
    KubernetesClient operatorClient() {
        return operatorClient;
    }

    /** Requests received so far, the benchmark's own left out. */
    long requests() {
        return dispatcher.total.sum();
    }

    /** Requests received so far on the shard Lease (the operator's namespace's Leases). */
    long shardLeaseRequests() {
        return dispatcher.shardLease.sum();
    }

    /** Requests received so far, by "METHOD path". */
    Map<String, Long> byPath() {
        Map<String, Long> copy = new TreeMap<>();
        dispatcher.byPath.forEach((path, count) -> copy.put(path, count.sum()));
        return copy;
    }

    /** The difference of two {@link #byPath()} snapshots, zeros left out. */
    static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> diff = new TreeMap<>();
        after.forEach((path, count) -> {
            long d = count - before.getOrDefault(path, 0L);
            if (d != 0) {
                diff.put(path, d);
            }
        });
        return diff;
    }

    /** Waits for {@code condition} at most {@code millis}; whether it held. */
    static boolean await(long millis, BooleanSupplier condition) {
        return await(millis, 5, condition);
    }

    /** Waits for {@code condition}, checked every {@code pollMillis}, at most {@code millis}; whether it held. */
    static boolean await(long millis, long pollMillis, BooleanSupplier condition) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(pollMillis);
        }
        return true;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        operatorClient.close();
        client.close();
        server.destroy();
    }

    /** The CRUD dispatcher, counting. */
    private static final class CountingDispatcher extends KubernetesCrudDispatcher {
        private final LongAdder total = new LongAdder();
        private final LongAdder shardLease = new LongAdder();
        private final Map<String, LongAdder> byPath = new ConcurrentHashMap<>();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if (DRIVER.equals(request.getHeader("User-Agent"))) {
                return super.dispatch(request);
            }
            total.increment();
            String path = request.getPath();
            if (path != null && path.contains("/namespaces/" + NAMESPACE + "/leases")) {
                shardLease.increment();
            }
            byPath.computeIfAbsent(request.getMethod() + " " + path, k -> new LongAdder()).increment();
            return super.dispatch(request);
        }
    }
}
