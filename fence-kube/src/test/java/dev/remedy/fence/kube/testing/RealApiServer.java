package dev.remedy.fence.kube.testing;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * A real kube-apiserver and etcd for a {@code *IT} class, started by fabric8's kube-api-test before the class's
 * {@code @BeforeAll} methods and stopped after its {@code @AfterAll} methods. Register it on a static field:
 * <pre>{@code @RegisterExtension static final RealApiServer API = new RealApiServer("the store contract");}</pre>
 *
 * <p>kube-api-test looks for {@code kube-apiserver}, {@code etcd} and {@code kubectl} in
 * {@code $KUBE_API_TEST_DIR/k8s/<version>-<os>-<arch>/} ({@code ~/.kubeapitest} when the variable is unset). Without
 * them the whole class is skipped at once, without a download and without running its {@code @BeforeAll} methods,
 * and the reason (how to provide the binaries) is logged as a warning, since the failsafe summary shows no message
 * for a skipped class. The server is started in offline mode, so a missing binary fails instead of downloading;
 * {@code KUBE_API_TEST_OFFLINE_MODE=false} lets kube-api-test download them (from GitHub) instead of skipping.
 *
 * <p>The client is kube-api-test's: a client certificate in group {@code system:masters}. The server runs with RBAC
 * and without a controller manager (no garbage collection, no ServiceAccount token controller) or kubelet.
 */
public final class RealApiServer implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

    private final String what;
    private KubeAPIServer server;
    private KubernetesClient client;

    /**
     * A server for the class that runs {@code what} (named in the skip message, for example
     * {@code "the store contract"}).
     */
    public RealApiServer(String what) {
        this.what = Objects.requireNonNull(what, "what");
    }

    /** The admin client of the running server. Valid from the class's {@code @BeforeAll} to its {@code @AfterAll}. */
    public KubernetesClient client() {
        if (client == null) {
            throw new IllegalStateException("the real API server is not running: use client() between the test "
                    + "class's @BeforeAll and @AfterAll, with RealApiServer registered on a static field");
        }
        return client;
    }

    /** Skips the class, with the reason logged, when the binaries are absent and downloads are not allowed. */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isPresent()) {
            return ConditionEvaluationResult.enabled("the class runs");
        }
        Optional<String> missing = unavailable();
        if (missing.isEmpty()) {
            return ConditionEvaluationResult.enabled("kube-api-test can start an API server");
        }
        String why = missing.get() + "; skipping the real-server run of " + what;
        LoggerFactory.getLogger(context.getRequiredTestClass()).warn(why);
        return ConditionEvaluationResult.disabled(why);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        KubeAPIServerConfigBuilder config = KubeAPIServerConfigBuilder.anAPIServerConfig().withUpdateKubeConfig(false);
        if (!downloadAllowed()) {
            config.withOfflineMode(true);
        }
        server = new KubeAPIServer(config.build());
        server.start();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.getKubeConfigYaml())).build();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (client != null) {
            client.close();
            client = null;
        }
        if (server != null) {
            server.stop();
            server = null;
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
        if ((versions != null && versions.length > 0) || downloadAllowed()) {
            return Optional.empty();
        }
        return Optional.of("no kube-apiserver, etcd and kubectl binaries in " + new File(dir, "k8s")
                + File.separator + "<version>" + platform + ": set KUBE_API_TEST_DIR to a directory holding k8s/<version>"
                + platform + "/{kube-apiserver,etcd,kubectl} (for example unpacked from an envtest release, or from "
                + "controller-runtime's setup-envtest), or run once online with KUBE_API_TEST_OFFLINE_MODE=false to let "
                + "kube-api-test download them to ~/.kubeapitest");
    }

    /** Whether the user allowed kube-api-test to download missing binaries ({@code KUBE_API_TEST_OFFLINE_MODE=false}). */
    private static boolean downloadAllowed() {
        return "false".equalsIgnoreCase(System.getenv(KubeAPIServerConfigBuilder.KUBE_API_TEST_OFFLINE_MODE));
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
}
