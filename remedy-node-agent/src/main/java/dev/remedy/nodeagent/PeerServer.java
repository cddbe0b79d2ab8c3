package dev.remedy.nodeagent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.nodeagent.internal.PeerWire;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import javax.net.ssl.SSLParameters;

/**
 * Serves the peer protocol over HTTPS, requiring a client certificate the peers' CA signed ({@link PeerTls}): a
 * connection without one fails in the TLS handshake. Answers {@code GET /v1/health?node=N&bootTime=S} with what the
 * agent's own view says ({@link NodeAgent#answer}); anything else gets 400, 404 or 405.
 */
public final class PeerServer implements AutoCloseable {

    private final HttpsServer server;

    private PeerServer(HttpsServer server) {
        this.server = server;
    }

    /**
     * Starts a server on {@code address}.
     *
     * @param address  where to listen (the node's peer port; port 0 picks one)
     * @param tls      the peers' TLS
     * @param answers  the answer for an asking node and its boot time, such as {@code agent::answer}
     * @param executor the threads that answer
     * @throws IOException if the address cannot be bound
     */
    public static PeerServer start(InetSocketAddress address, PeerTls tls,
            BiFunction<String, Instant, PeerAnswer> answers, Executor executor) throws IOException {
        Objects.requireNonNull(answers, "answers");
        HttpsServer server = HttpsServer.create(address, 64);
        server.setHttpsConfigurator(new HttpsConfigurator(tls.context()) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters ssl = tls.context().getDefaultSSLParameters();
                ssl.setNeedClientAuth(true);
                ssl.setProtocols(PeerTls.PROTOCOLS);
                params.setSSLParameters(ssl);
            }
        });
        server.createContext(PeerWire.PATH, exchange -> handle(exchange, tls, answers));
        server.setExecutor(executor);
        server.start();
        return new PeerServer(server);
    }

    private static void handle(HttpExchange exchange, PeerTls tls, BiFunction<String, Instant, PeerAnswer> answers)
            throws IOException {
        try (exchange) {
            if (!(exchange instanceof HttpsExchange https) || !tls.trustsClient(https.getSSLSession())) {
                send(exchange, 403, "{\"error\":\"the client certificate is not signed by the peers' CA in use\"}");
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "{\"error\":\"only GET\"}");
                return;
            }
            if (!PeerWire.PATH.equals(exchange.getRequestURI().getPath())) {
                send(exchange, 404, "{\"error\":\"not found\"}");
                return;
            }
            Optional<PeerWire.Request> request = PeerWire.request(exchange.getRequestURI().getRawQuery());
            if (request.isEmpty()) {
                send(exchange, 400, "{\"error\":\"give node=<node name>&bootTime=<epoch seconds>\"}");
                return;
            }
            PeerAnswer answer = answers.apply(request.get().node(), request.get().bootTime());
            send(exchange, 200, PeerWire.body(request.get().node(), answer));
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The bound address (its port, when started on port 0). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Stops at once, dropping requests in flight. */
    @Override
    public void close() {
        server.stop(0);
    }
}
