package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.FenceContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * An agent's way to the API server: a client built at the first call from the agent's settings (and closed with the
 * connection), or the host's client (left open). Every call runs on the connection's one daemon thread and is waited
 * for at most until the action's deadline, so that a hanging API server or an interrupt never holds the agent past
 * it. Not thread-safe for concurrent calls, as an agent runs one action at a time; {@link #close()} may come from
 * any thread.
 */
public final class KubeConnection implements AutoCloseable {

    /** What the run-time class path needs for a client the agent builds itself. */
    static final String CLASS_PATH_HINT = "the class path needs io.fabric8:kubernetes-client and an HTTP client"
            + " implementation such as io.fabric8:kubernetes-httpclient-jdk (remedy-cli has both)";

    private final KubeAgentSettings settings;
    private final String threadName;
    private final boolean owned;
    private KubernetesClient client;
    private ExecutorService calls;
    private boolean closed;

    private KubeConnection(KubeAgentSettings settings, KubernetesClient client, String threadName) {
        this.settings = settings;
        this.client = client;
        this.owned = client == null;
        this.threadName = threadName;
    }

    /** A connection whose client is built from {@code settings} at the first call. Does no I/O. */
    public static KubeConnection lazy(KubeAgentSettings settings, String threadName) {
        return new KubeConnection(settings, null, threadName);
    }

    /** A connection over the host's {@code client}, which {@link #close()} leaves open. */
    public static KubeConnection over(KubernetesClient client, KubeAgentSettings settings, String threadName) {
        return new KubeConnection(settings, Objects.requireNonNull(client, "client"), threadName);
    }

    /** The settings of this connection. */
    public KubeAgentSettings settings() {
        return settings;
    }

    /**
     * Runs {@code request} against the API server within the action's deadline and {@code request_timeout}.
     *
     * @param what what the call does, for messages ({@code "read BareMetalHost metal3/host-1"})
     * @throws ApiCallException if the client cannot be built, the server refuses or cannot be reached, or the
     *     deadline comes first
     * @throws InterruptedException if the thread is interrupted while waiting (the call is cancelled)
     */
    public <T> T call(FenceContext context, String what, Function<KubernetesClient, T> request)
            throws InterruptedException {
        context.checkInterrupted();
        KubernetesClient kube = client(what);
        Duration wait = context.cap(settings.requestTimeout());
        if (wait.isZero()) {
            throw new ApiCallException("could not " + what + ": the action's deadline had passed", true, null);
        }
        Future<T> answer = executor().submit(() -> request.apply(kube));
        try {
            return answer.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            answer.cancel(true);
            boolean deadline = context.expired();
            throw new ApiCallException("could not " + what + ": the API server at " + server(kube)
                    + " did not answer within " + wait.toMillis() + " ms" + (deadline ? " (the action's deadline)"
                    : " (request_timeout)"), deadline, e);
        } catch (ExecutionException e) {
            throw failure(what, kube, e.getCause());
        }
    }

    /** Closes the client if this connection built it, and stops the call thread. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (calls != null) {
            calls.shutdownNow();
        }
        if (owned && client != null) {
            client.close();
            client = null;
        }
    }

    private synchronized ExecutorService executor() {
        if (closed) {
            throw new ApiCallException("the agent was closed: create a new one", false, null);
        }
        if (calls == null) {
            calls = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(task, threadName);
                thread.setDaemon(true);
                return thread;
            });
        }
        return calls;
    }

    private synchronized KubernetesClient client(String what) {
        if (closed) {
            throw new ApiCallException("the agent was closed: create a new one", false, null);
        }
        if (client == null) {
            client = build(what);
        }
        return client;
    }

    private KubernetesClient build(String what) {
        Config config = config(what);
        config.setTrustCerts(config.isTrustCerts() || settings.sslInsecure());
        settings.token().ifPresent(token -> config.setOauthToken(token.reveal()));
        int timeout = (int) Math.min(Integer.MAX_VALUE, settings.requestTimeout().toMillis());
        config.setRequestTimeout(timeout);
        config.setConnectionTimeout(timeout);
        // the agent polls and bounds every call itself: fabric8's own retries would only hide a failing server
        config.setRequestRetryBackoffLimit(0);
        if (!httpClientPresent()) {
            throw new ApiCallException("could not " + what + ": no fabric8 HTTP client implementation was found;"
                    + " " + CLASS_PATH_HINT, false, null);
        }
        try {
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (RuntimeException | LinkageError e) {
            throw new ApiCallException("could not " + what + ": cannot build a Kubernetes client (" + e + "); "
                    + CLASS_PATH_HINT, false, e);
        }
    }

    private Config config(String what) {
        Optional<Path> file = settings.kubeconfig();
        if (file.isEmpty()) {
            return Config.autoConfigure(null);
        }
        Path path = file.get();
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new ApiCallException("could not " + what + ": cannot read kubeconfig " + path + " (" + e
                    + "): give a readable kubeconfig file, or leave kubeconfig out to use the pod's service account",
                    false, e);
        }
        try {
            return Config.fromKubeconfig(null, text, path.toString());
        } catch (RuntimeException e) {
            throw new ApiCallException("could not " + what + ": kubeconfig " + path + " is not a valid kubeconfig ("
                    + e.getMessage() + ")", false, e);
        }
    }

    private static boolean httpClientPresent() {
        ClassLoader own = KubeConnection.class.getClassLoader();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return ServiceLoader.load(HttpClient.Factory.class, own).findFirst().isPresent()
                || context != null && ServiceLoader.load(HttpClient.Factory.class, context).findFirst().isPresent();
    }

    private static ApiCallException failure(String what, KubernetesClient kube, Throwable error) {
        if (error instanceof KubernetesClientException k) {
            int code = k.getCode();
            String reason = switch (code) {
                case HttpURLConnection.HTTP_UNAUTHORIZED -> "the API server did not accept the credentials (HTTP 401):"
                        + " check the token parameter or the kubeconfig's user";
                case HttpURLConnection.HTTP_FORBIDDEN -> "remedy's account may not do this (HTTP 403): grant it the"
                        + " verbs deploy/20-rbac.yaml lists for the fence agents";
                case HttpURLConnection.HTTP_NOT_FOUND -> "not found (HTTP 404): check the object's name and namespace,"
                        + " and that its resource type is installed";
                case HttpURLConnection.HTTP_CONFLICT -> "a conflicting change (HTTP 409): the action may be retried";
                case 0 -> "cannot reach the API server at " + server(kube) + " (" + rootCause(k)
                        + "): check the kubeconfig and the network";
                default -> "the API server answered HTTP " + code + " (" + k.getMessage() + ")";
            };
            return new ApiCallException("could not " + what + ": " + reason, false, k);
        }
        return new ApiCallException("could not " + what + ": " + error, false, error);
    }

    private static String rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }

    private static String server(KubernetesClient kube) {
        return String.valueOf(kube.getConfiguration().getMasterUrl());
    }
}
