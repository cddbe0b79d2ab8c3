package dev.remedy.fence.kube.cluster;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link ClusterOperations} contract on a real kube-apiserver and etcd, started by {@code io.fabric8:kube-api-test}:
 * the field selector {@code spec.nodeName}, paging with {@code continue} (two pods a page), 409 Conflict on a stale
 * resourceVersion and API validation all as in a cluster. There is no kubelet or controller: pods deleted with grace
 * period 0 are gone at once.
 *
 * <p>kube-api-test looks for {@code kube-apiserver}, {@code etcd} and {@code kubectl} in
 * {@code $KUBE_API_TEST_DIR/k8s/<version>-<os>-<arch>/} ({@code ~/.kubeapitest} when the variable is unset) and
 * downloads them from GitHub when they are missing. Without the binaries and without a connection to GitHub the test
 * is skipped at once, with a message saying how to provide them, instead of hanging on a download.
 */
class KubeClusterOperationsIT extends KubeClusterContract {

    private static final String DOWNLOAD_HOST = "raw.githubusercontent.com";
    private static final int PROBE_MILLIS = 3000;

    private static KubeAPIServer apiServer;
    private static KubernetesClient client;
    private static Optional<String> missing = Optional.empty();

    private ClusterOperations cluster;

    @BeforeAll
    static void startApiServer() {
        missing = unavailable();
        if (missing.isPresent()) {
            return;
        }
        apiServer = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig().withUpdateKubeConfig(false)
                .build());
        apiServer.start();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(apiServer.getKubeConfigYaml()))
                .build();
        for (String namespace : List.of(KubeClusterOperations.DEFAULT_BACKUP_NAMESPACE, "team-a", "team-b")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
            // no controller manager creates it, and the ServiceAccount admission plugin requires it for pods
            client.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
                    .withName("default").endMetadata().withAutomountServiceAccountToken(false).build()).create();
        }
    }

    /** Skips each test, with the reason, when there is no API server: a class-level skip shows no message. */
    @BeforeEach
    void requireApiServer() {
        Assumptions.assumeTrue(missing.isEmpty(), missing::get);
    }

    @AfterAll
    static void stopApiServer() {
        if (client != null) {
            client.close();
        }
        if (apiServer != null) {
            apiServer.stop();
        }
    }

    /** Why the API server cannot be started here, or empty when it can. */
    static Optional<String> unavailable() {
        String configured = System.getenv(KubeAPIServerConfigBuilder.KUBE_API_TEST_DIR);
        File dir = configured != null ? new File(configured)
                : new File(System.getProperty("user.home"), KubeAPIServerConfigBuilder.DIRECTORY_NAME);
        String platform = "-" + os() + "-" + arch();
        File[] versions = new File(dir, "k8s").listFiles(f -> f.isDirectory() && f.getName().endsWith(platform)
                && new File(f, "kube-apiserver").canExecute() && new File(f, "etcd").canExecute()
                && new File(f, "kubectl").canExecute());
        if (versions != null && versions.length > 0) {
            return Optional.empty();
        }
        if (reachable(DOWNLOAD_HOST)) {
            return Optional.empty();
        }
        return Optional.of("no kube-apiserver, etcd and kubectl binaries in " + new File(dir, "k8s")
                + File.separator + "<version>" + platform + ", and " + DOWNLOAD_HOST + " is unreachable, so "
                + "kube-api-test cannot download them: run once with internet access (they are downloaded to "
                + "~/.kubeapitest), or set KUBE_API_TEST_DIR to a directory holding k8s/<version>" + platform
                + "/{kube-apiserver,etcd,kubectl} (for example from controller-runtime's setup-envtest)");
    }

    /** Whether a TCP connection to {@code host}:443 opens within the probe time (name resolution included). */
    private static boolean reachable(String host) {
        CompletableFuture<Boolean> probe = CompletableFuture.supplyAsync(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, 443), PROBE_MILLIS);
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        try {
            return probe.get(PROBE_MILLIS + 1000L, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            probe.cancel(true);
            return false;
        }
    }

    private static String os() {
        String name = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        return name.contains("win") ? "windows" : name.contains("mac") ? "darwin" : "linux";
    }

    private static String arch() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "aarch64", "arm64" -> "arm64";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            default -> "amd64";
        };
    }

    @Override
    protected ClusterOperations cluster() {
        if (cluster == null) {
            // the production pod listing (field selector), two pods a page to exercise continue tokens
            cluster = KubeClusterOperations.builder(client).time(new FakeTimeSource()).podPageSize(2).build();
        }
        return cluster;
    }

    @Override
    protected KubernetesClient client() {
        return client;
    }
}
