package dev.remedy.simulators.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the {@link RedfishService} on the wire: reads each exchange, applies the injected transport faults
 * (planned failures, overrides, slow responses, broken JSON, oversized bodies), writes the reply and counts and logs
 * the request. Runs on the server's worker threads.
 */
final class RedfishHttpHandler implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RedfishHttpHandler.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The padding of oversized bodies is written in chunks of this many bytes, one chunk reused. */
    private static final int CHUNK = 64 << 10;

    private final RedfishService service;
    private final RedfishFaults faults;
    private final RequestLog log;

    RedfishHttpHandler(RedfishService service, RedfishFaults faults, RequestLog log) {
        this.service = service;
        this.faults = faults;
        this.log = log;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
        String path = exchange.getRequestURI().getPath();
        Headers headers = exchange.getRequestHeaders();
        Credentials credentials = Credentials.of(headers.getFirst("X-Auth-Token"), headers.getFirst("Authorization"));
        try (exchange) {
            byte[] body = readBody(exchange.getRequestBody());
            RedfishFaults.Failure failure = faults.takeFailure();
            if (failure != null && failure.unanswered() || failure == null && faults.takeUnanswered(path)) {
                // logged as status 0, like a dropped connection: the client got no answer
                log.add(new RedfishRequest(method, path, 0, credentials.kind()));
                faults.holdUnanswered();
                return;
            }
            if (failure != null && failure.dropsConnection()) {
                // closing the exchange before any response header closes the connection itself
                log.add(new RedfishRequest(method, path, 0, credentials.kind()));
                return;
            }
            Optional<RedfishFaults.RawAnswer> override = failure == null ? faults.overrideOf(path) : Optional.empty();
            if (override.isPresent()) {
                log.add(new RedfishRequest(method, path, override.get().status(), credentials.kind()));
                pause(faults.slowResponses());
                writeRaw(exchange, override.get());
                return;
            }
            Reply reply;
            try {
                reply = answer(method, path, credentials, headers.getFirst("Authorization"), body, failure);
            } catch (RuntimeException e) {
                LOG.warn("Redfish simulator failed on {} {}", method, path, e);
                reply = Reply.error(500, "InternalError", "The simulator failed: " + e, "Report a bug in the "
                        + "remedy Redfish simulator.");
            }
            // Logged before the answer leaves, so a client that has its answer also sees it counted.
            log.add(new RedfishRequest(method, path, reply.status(), credentials.kind()));
            pause(faults.slowResponses());
            Optional<RedfishFaults.Oversized> oversized = faults.oversizedOf(path);
            if (oversized.isPresent() && method.equals("GET") && reply.status() == 200 && reply.body() != null) {
                writeOversized(exchange, reply, oversized.get());
            } else {
                write(exchange, reply);
            }
        }
    }

    private Reply answer(String method, String path, Credentials credentials, String authorization, byte[] body,
            RedfishFaults.Failure failure) {
        if (failure == null && faults.echoCredentials() && (body.length > 0 || authorization != null)) {
            return echo(authorization, body);
        }
        if (failure == null) {
            return service.handle(method, path, credentials, body);
        }
        if (failure.retryAfter() != null) {
            long seconds = (failure.retryAfter().toMillis() + 999) / 1000;
            return Reply.error(503, "ServiceTemporarilyUnavailable", "The service is temporarily unavailable. "
                    + "Retry in " + seconds + " seconds.", "Wait for the indicated retry duration and retry the "
                    + "operation.").with("Retry-After", Long.toString(seconds));
        }
        if (failure.status() == 500) {
            return Reply.error(500, "InternalError", "The request failed due to an internal service error (injected "
                    + "fault).", "Resubmit the request. If the problem persists, consider resetting the service.");
        }
        return Reply.error(failure.status(), "GeneralError", "A general error has occurred (injected fault, HTTP "
                + failure.status() + ").", "None.");
    }

    /** A 400 that echoes the request body verbatim or, for a request without one, its Authorization header. */
    private static Reply echo(String authorization, byte[] body) {
        if (body.length == 0) {
            return Reply.error(400, "GeneralError", "The request was refused; it carried Authorization: "
                    + authorization, "None.");
        }
        JsonNode echoed;
        try {
            echoed = MAPPER.readTree(body);
        } catch (IOException e) {
            echoed = TextNode.valueOf(new String(body, StandardCharsets.UTF_8));
        }
        return new Reply(400, Map.of(), echoed);
    }

    private void write(HttpExchange exchange, Reply reply) throws IOException {
        Headers out = exchange.getResponseHeaders();
        out.set("OData-Version", "4.0");
        for (Map.Entry<String, String> header : reply.headers().entrySet()) {
            out.set(header.getKey(), header.getValue());
        }
        if (reply.body() == null) {
            exchange.sendResponseHeaders(reply.status(), -1);
            return;
        }
        byte[] bytes = MAPPER.writeValueAsBytes(reply.body());
        if (faults.takeInvalidJson()) {
            bytes = Arrays.copyOf(bytes, bytes.length / 2);
        }
        out.set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(reply.status(), bytes.length);
        try (OutputStream stream = exchange.getResponseBody()) {
            stream.write(bytes);
        }
    }

    private static void writeRaw(HttpExchange exchange, RedfishFaults.RawAnswer override) throws IOException {
        Headers out = exchange.getResponseHeaders();
        override.headers().forEach(out::set);
        byte[] body = override.body();
        boolean bodiless = body == null || override.status() == 204 || override.status() == 304;
        exchange.sendResponseHeaders(override.status(), bodiless ? -1 : body.length);
        if (!bodiless) {
            try (OutputStream stream = exchange.getResponseBody()) {
                stream.write(body);
            }
        }
    }

    /**
     * Writes the resource as {@code {"Padding":"xx…x", <its properties>}} of the oversized length, the padding from
     * one reused chunk; stops when the client stops reading.
     */
    private void writeOversized(HttpExchange exchange, Reply reply, RedfishFaults.Oversized oversized)
            throws IOException {
        byte[] json = MAPPER.writeValueAsBytes(reply.body());
        byte[] head = "{\"Padding\":\"".getBytes(StandardCharsets.US_ASCII);
        byte[] rest = json.length <= 2 ? "\"}".getBytes(StandardCharsets.US_ASCII)
                : concat("\",".getBytes(StandardCharsets.US_ASCII), Arrays.copyOfRange(json, 1, json.length));
        long padding = Math.max(0, oversized.bytes() - head.length - rest.length);
        long total = head.length + padding + rest.length;
        exchange.getResponseHeaders().set("OData-Version", "4.0");
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(200, oversized.declareLength() ? total : 0);
        byte[] chunk = new byte[CHUNK];
        Arrays.fill(chunk, (byte) 'x');
        long sent = 0;
        try (OutputStream stream = exchange.getResponseBody()) {
            stream.write(head);
            sent += head.length;
            while (sent - head.length < padding) {
                int n = (int) Math.min(chunk.length, padding - (sent - head.length));
                stream.write(chunk, 0, n);
                sent += n;
            }
            stream.write(rest);
            sent += rest.length;
        } catch (IOException e) {
            LOG.debug("the client stopped reading an oversized body after {} of {} bytes: {}", sent, total,
                    e.toString());
        } finally {
            faults.oversizedSent(sent);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] readBody(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static void pause(Duration delay) {
        if (delay.isZero()) {
            return;
        }
        try {
            Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
