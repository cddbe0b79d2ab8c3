package dev.remedy.fence.kube.machine;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A client on the same mock API server that records the method and path of every request it sends, and can "crash"
 * the process right before a chosen request: the request is never sent and the caller gets an exception.
 */
final class CrashingClient {

    /** A crash of the engine: what a test catches where the process would have died. */
    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash(String request) {
            super("crashed before " + request);
        }
    }

    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final AtomicReference<Predicate<String>> crashBefore = new AtomicReference<>(r -> false);
    private final KubernetesClient client;

    CrashingClient(KubernetesClient server) {
        Interceptor recorder = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                String one = request.method() + " " + request.uri().getRawPath();
                if (crashBefore.get().test(one)) {
                    crashBefore.set(r -> false);
                    throw new Crash(one);
                }
                sent.add(one);
            }
        };
        this.client = new KubernetesClientBuilder().withConfig(server.getConfiguration())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("crash", recorder)).build();
    }

    KubernetesClient client() {
        return client;
    }

    /** Crashes before the next request matching {@code request} ("METHOD /path"), once. */
    void crashBefore(Predicate<String> request) {
        crashBefore.set(request);
    }

    /** Crashes before the {@code n}-th write (any request but a GET) from now on, once. */
    void crashBeforeWrite(int n) {
        int[] writes = {0};
        crashBefore(request -> !request.startsWith("GET ") && ++writes[0] == n);
    }

    /** How many writes (requests but GETs) were sent. */
    long writes() {
        return sent.stream().filter(r -> !r.startsWith("GET ")).count();
    }

    /** The requests sent, in order, as "METHOD /path". */
    List<String> sent() {
        return List.copyOf(sent);
    }
}
