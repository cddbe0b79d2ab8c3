package dev.remedy.fence.kube.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.store.FenceStateStore;
import dev.remedy.test.conformance.FenceStateStoreContract;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.slf4j.LoggerFactory;

/**
 * {@link KubeFenceStateStore} meets the {@link FenceStateStore} contract on a real kube-apiserver and etcd, started
 * by fabric8's kube-api-test. Skipped, at once and without a download, when their binaries are absent:
 * kube-api-test looks in {@code $KUBE_API_TEST_DIR} (default {@code ~/.kubeapitest}) for
 * {@code k8s/<version>-<os>-<arch>/} holding {@code kube-apiserver}, {@code etcd} and {@code kubectl}. Provide
 * them by running kube-api-test once with internet access (it downloads the envtest binaries listed in
 * kubernetes-sigs/controller-tools' {@code envtest-releases.yaml}), or by unpacking an envtest release archive
 * there; {@code KUBE_API_TEST_API_SERVER_VERSION} picks a version. The server is started in offline mode, so a
 * missing binary fails instead of downloading.
 */
@DisplayName("KubeFenceStateStore on a real API server (kube-api-test)")
class KubeFenceStateStoreIT extends FenceStateStoreContract {

    private static final Duration ESTABLISHED = Duration.ofSeconds(60);

    private static KubeAPIServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void startApiServer() {
        Path dir = Path.of(Optional.ofNullable(System.getenv("KUBE_API_TEST_DIR"))
                .orElse(System.getProperty("user.home") + File.separator + ".kubeapitest"));
        if (!hasBinaries(dir.resolve("k8s"))) {
            String why = "no kube-apiserver and etcd binaries under "
                + dir.resolve("k8s") + " (k8s/<version>-<os>-<arch>/{kube-apiserver,etcd,kubectl}); set "
                + "KUBE_API_TEST_DIR to a directory holding them, or run kube-api-test once online to download "
                + "them to ~/.kubeapitest; skipping the real-server run of the store contract";
            // logged too: a class skipped in @BeforeAll shows no message in the failsafe summary
            LoggerFactory.getLogger(KubeFenceStateStoreIT.class).warn(why);
            Assumptions.abort(why);
        }
        server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig().withOfflineMode(true)
                .withUpdateKubeConfig(false).build());
        server.start();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.getKubeConfigYaml())).build();
        NodeFenceCrd.apply(client);
        NodeFenceCrd.awaitEstablished(client, ESTABLISHED);
    }

    @AfterAll
    static void stopApiServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Override
    protected FenceStateStore newStore() {
        client.resources(NodeFenceResource.class).delete();
        KubeFenceStateStore store = new KubeFenceStateStore(client, 3);
        assertThat(client.resources(NodeFenceResource.class).list().getItems()).as("NodeFences left from the last "
                + "test").isEmpty();
        return store;
    }

    private static boolean hasBinaries(Path k8s) {
        if (!Files.isDirectory(k8s)) {
            return false;
        }
        try (Stream<Path> versions = Files.list(k8s)) {
            return versions.anyMatch(v -> Files.isExecutable(v.resolve("kube-apiserver"))
                    && Files.isExecutable(v.resolve("etcd")));
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
