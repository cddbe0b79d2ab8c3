package dev.remedy.fence.kube.store;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A second client on the same (mock) API server that records every request it sends and can run an action just
 * before a chosen request goes out: how a test puts another writer's change between a store's read and its write,
 * deterministically.
 */
final class RequestHooks {

    /** One request: its method and its path with query. */
    record Sent(String method, String pathAndQuery) {
    }

    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final List<Hook> hooks = new CopyOnWriteArrayList<>();
    private final KubernetesClient client;

    RequestHooks(KubernetesClient server) {
        Interceptor recorder = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                String path = request.uri().getRawPath()
                        + (request.uri().getRawQuery() == null ? "" : "?" + request.uri().getRawQuery());
                Sent one = new Sent(request.method(), path);
                sent.add(one);
                for (Hook hook : hooks) {
                    if (hook.remaining > 0 && hook.when.test(one)) {
                        hook.remaining--;
                        hook.action.run();
                    }
                }
            }
        };
        this.client = new KubernetesClientBuilder().withConfig(server.getConfiguration())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("test-hooks", recorder)).build();
    }

    /** The client whose requests are recorded and hooked. */
    KubernetesClient client() {
        return client;
    }

    /** Runs {@code action} (on another client) before the next {@code times} requests that match {@code when}. */
    void before(Predicate<Sent> when, int times, Runnable action) {
        hooks.add(new Hook(when, times, action));
    }

    /** Every request sent so far. */
    List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** A PUT to the NodeFence of {@code node}. */
    static Predicate<Sent> putOf(String node) {
        return s -> s.method().equals("PUT") && s.pathAndQuery().endsWith("/nodefences/" + node);
    }

    void close() {
        client.close();
    }

    private static final class Hook {
        final Predicate<Sent> when;
        final Runnable action;
        int remaining;

        Hook(Predicate<Sent> when, int times, Runnable action) {
            this.when = when;
            this.remaining = times;
            this.action = action;
        }
    }
}
