package dev.remedy.fence.kube.operator.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operator's HTTP side: {@code /metrics} (Prometheus text), {@code /healthz} (liveness) and {@code /readyz}
 * (readiness), on the JDK's HTTP server with one thread. Only GET and HEAD; anything else is 405, other paths 404.
 */
public final class HttpEndpoint implements AutoCloseable {

    /** The content type of the Prometheus text format. */
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving on {@code address} (port 0 picks a free port).
     *
     * @param metrics the metrics in the Prometheus text format
     * @param live    whether the operator's threads are alive
     * @param ready   whether the operator has read the cluster (informers synced) and its configuration
     */
    public static HttpEndpoint start(InetSocketAddress address, Supplier<String> metrics, BooleanSupplier live,
                                     BooleanSupplier ready) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + " for metrics and health (is the port in "
                    + "use? choose another with --http-address): " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "remedy-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> answer(exchange, 200, PROMETHEUS_TEXT, metrics.get()));
        server.createContext("/healthz", exchange -> probe(exchange, live.getAsBoolean()));
        server.createContext("/readyz", exchange -> probe(exchange, ready.getAsBoolean()));
        server.createContext("/", exchange -> answer(exchange, 404, "text/plain", "not found: try /metrics, /healthz "
                + "or /readyz\n"));
        server.start();
        return new HttpEndpoint(server, executor);
    }

    /** The address served, with the port chosen. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void probe(HttpExchange exchange, boolean ok) throws IOException {
        answer(exchange, ok ? 200 : 503, "text/plain", ok ? "ok\n" : "not ready\n");
    }

    private static void answer(HttpExchange exchange, int status, String type, String body) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
