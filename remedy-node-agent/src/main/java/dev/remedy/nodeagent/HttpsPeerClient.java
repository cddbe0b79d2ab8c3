package dev.remedy.nodeagent;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.nodeagent.internal.BoundedBody;
import dev.remedy.nodeagent.internal.PeerWire;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks peers over HTTPS with mutual TLS ({@link PeerTls}): {@code GET https://<address>:<peerPort>/v1/health}, with
 * the settings' {@code peerDialTimeout} to connect and {@code peerRequestTimeout} for the answer; the whole exchange,
 * body included, ends within their sum. The answer counts only from a peer whose certificate the CA in use signed, in
 * a body of at most {@value #MAX_ANSWER_BYTES} bytes, about the asking node. Any failure is
 * {@link PeerAnswer#NO_ANSWER}. Thread-safe.
 */
public final class HttpsPeerClient implements PeerTransport {

    private static final Logger LOG = LoggerFactory.getLogger(HttpsPeerClient.class);

    /** The longest answer read: an answer is some 60 bytes; a longer body is no answer. */
    static final int MAX_ANSWER_BYTES = 4096;

    private final HttpClient http;
    private final NodeAgentSettings settings;
    private final Function<PeerNode, Optional<InetSocketAddress>> addresses;
    private final PeerTls tls;

    /**
     * A client that reaches each peer at its node address and the settings' {@code peerPort}.
     *
     * @param tls      the peers' TLS
     * @param settings the timeouts and port
     * @param executor the HTTP client's threads
     */
    public HttpsPeerClient(PeerTls tls, NodeAgentSettings settings, Executor executor) {
        this(tls, settings, executor, peer -> peer.address()
                .map(host -> InetSocketAddress.createUnresolved(host, settings.peerPort())));
    }

    /**
     * A client with its own way to find a peer's address (tests run many agents on one host, one port each).
     *
     * @param addresses where a peer's agent listens; empty when it has no address (then it does not answer)
     */
    public HttpsPeerClient(PeerTls tls, NodeAgentSettings settings, Executor executor,
            Function<PeerNode, Optional<InetSocketAddress>> addresses) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.addresses = Objects.requireNonNull(addresses, "addresses");
        this.tls = Objects.requireNonNull(tls, "tls");
        SSLParameters params = tls.context().getDefaultSSLParameters();
        params.setProtocols(PeerTls.PROTOCOLS);
        this.http = HttpClient.newBuilder().sslContext(tls.context()).sslParameters(params)
                .connectTimeout(settings.timings().peerDialTimeout()).executor(executor)
                .version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public PeerAnswer ask(PeerNode peer, String self, Instant bootTime) {
        Optional<InetSocketAddress> address = addresses.apply(peer);
        if (address.isEmpty()) {
            return PeerAnswer.NO_ANSWER;
        }
        String host = address.get().getHostString();
        URI uri = URI.create("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + address.get().getPort() + PeerWire.PATH + "?" + PeerWire.query(self, bootTime));
        HttpRequest request = HttpRequest.newBuilder(uri).GET().timeout(settings.timings().peerRequestTimeout())
                .build();
        // The request's timeout ends at the response's headers: a peer that sends them and then holds the body
        // would hold this call for as long as it likes. The whole exchange is bounded here instead.
        Duration limit = settings.timings().peerDialTimeout().plus(settings.timings().peerRequestTimeout());
        CompletableFuture<HttpResponse<String>> exchange;
        try {
            exchange = http.sendAsync(request, BoundedBody.handler(MAX_ANSWER_BYTES));
        } catch (RuntimeException e) {
            LOG.debug("peer {} cannot be asked: {}", peer.name(), e.toString());
            return PeerAnswer.NO_ANSWER;
        }
        try {
            HttpResponse<String> response = exchange.get(limit.toNanos(), TimeUnit.NANOSECONDS);
            if (response.sslSession().filter(tls::trustsServer).isEmpty()) {
                LOG.debug("peer {} presents a certificate the peers' CA in use did not sign", peer.name());
                return PeerAnswer.NO_ANSWER;
            }
            if (response.statusCode() != 200) {
                LOG.debug("peer {} answered HTTP {}", peer.name(), response.statusCode());
                return PeerAnswer.NO_ANSWER;
            }
            return PeerWire.answer(response.body(), self);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return PeerAnswer.NO_ANSWER;
        } catch (TimeoutException e) {
            exchange.cancel(true);
            LOG.debug("peer {} did not answer within {}", peer.name(), limit);
            return PeerAnswer.NO_ANSWER;
        } catch (ExecutionException e) {
            LOG.debug("peer {} did not answer: {}", peer.name(), e.getCause().toString());
            return PeerAnswer.NO_ANSWER;
        } catch (RuntimeException e) {
            LOG.debug("peer {} did not answer: {}", peer.name(), e.toString());
            return PeerAnswer.NO_ANSWER;
        }
    }
}
