package dev.remedy.fence.redfish.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishException.Kind;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One authenticated conversation with a Redfish service, inside one deadline. Requests are asynchronous and
 * each has a timeout (the configured one, or less if the deadline is nearer). {@code 503} is retried after its
 * {@code Retry-After} (1 s if absent) while the deadline allows; a {@code 401} on a session is answered by one
 * new login and one retry, a {@code 401} to a request sent before any login (the service root) by one try with HTTP
 * Basic; a read or login that gets no answer within its timeout is sent again after a backoff (250 ms doubling, at
 * most 4 s) while the deadline allows, an action never (it may have been received); a {@code 202} with a task monitor
 * is followed until the task ends. {@link #close()} logs the session out in every case. Response bodies are read up to a limit ({@code max_response_size}) and no
 * further. Links the service sends (in bodies and {@code Location} headers) name paths on this service: their scheme,
 * host and port are ignored, so a service cannot send the credentials elsewhere. Thread-safe.
 */
public final class RedfishConnection {

    private static final Logger LOG = LoggerFactory.getLogger(RedfishConnection.class);
    private static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
    private static final Duration TASK_POLL = Duration.ofMillis(500);
    private static final Duration LOGOUT_TIMEOUT = Duration.ofSeconds(3);
    /** The wait before the second try of a request that got no answer; it doubles at each further try. */
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    /** The longest wait between tries of a request that got no answer. */
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(4);
    private static final String SESSIONS = "/redfish/v1/SessionService/Sessions";
    /** The longest wait a {@code Retry-After} may ask for; a longer one is taken as this (the deadline cuts it). */
    private static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(10);
    /** The longest session token accepted. */
    private static final int MAX_TOKEN_LENGTH = 8_192;
    /** The parameter that sets {@link #maxResponseSize}, for messages. */
    public static final String MAX_RESPONSE_SIZE = "max_response_size";

    private final HttpClient http;
    private final URI base;
    private final String user;
    private final Secret password;
    private final Duration requestTimeout;
    private final long maxResponseSize;
    private final long deadline;
    private final Executor executor;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile AuthMode mode;
    private volatile String token;
    private volatile URI session;
    private volatile String sessionsPath = SESSIONS;
    private volatile boolean closed;

    /**
     * @param base the service's scheme, host and port, e.g. {@code https://10.0.0.5:443}
     * @param maxResponseSize the largest response body read, in bytes; a larger one fails the request
     * @param deadline {@link System#nanoTime()} after which no request is started and waits end
     * @param executor runs delayed retries and polls (the HTTP client's executor)
     */
    public RedfishConnection(HttpClient http, URI base, String user, Secret password, AuthMode mode,
            Duration requestTimeout, long maxResponseSize, long deadline, Executor executor) {
        this.http = Objects.requireNonNull(http, "http");
        this.base = Objects.requireNonNull(base, "base");
        this.user = Objects.requireNonNull(user, "user");
        this.password = Objects.requireNonNull(password, "password");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (maxResponseSize < 1) {
            throw new IllegalArgumentException("maxResponseSize must be positive, was " + maxResponseSize);
        }
        this.maxResponseSize = maxResponseSize;
        this.deadline = deadline;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** The service as {@code scheme://host:port}, for messages. */
    public String service() {
        return base.toString();
    }

    /** How many HTTP requests were sent (retries included). */
    public int requests() {
        return requests.get();
    }

    /**
     * Logs in if this connection uses sessions: POST the user and password to the Sessions collection the service
     * root advertises ({@code Links.Sessions}). A root that advertises neither that link nor a {@code SessionService}
     * is used with HTTP Basic. A root with a {@code SessionService} but no {@code Links.Sessions} gets the POST at the
     * standard path; as the service never advertised that path, a 401 there switches to HTTP Basic (the next request
     * tells whether the credentials are good) instead of blaming them. A service without a SessionService (404, 405)
     * is used with HTTP Basic too.
     *
     * @param sessions the Sessions collection from the service root ({@code Links.Sessions}), if it names one
     * @param sessionService whether the service root advertises a {@code SessionService}
     */
    public CompletableFuture<Void> login(Optional<String> sessions, boolean sessionService) {
        sessions.ifPresent(path -> sessionsPath = path);
        if (mode != AuthMode.SESSION) {
            LOG.debug("using HTTP Basic as user '{}' on {}", user, base);
            return CompletableFuture.completedFuture(null);
        }
        if (sessions.isEmpty() && !sessionService) {
            LOG.info("Redfish service {} advertises no SessionService and no Links.Sessions; using HTTP Basic", base);
            mode = AuthMode.BASIC;
            return CompletableFuture.completedFuture(null);
        }
        Map<String, String> credentials = Map.of("UserName", user, "Password", password.reveal());
        byte[] body;
        try {
            body = RedfishJson.MAPPER.writeValueAsBytes(credentials);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the login body", e);
        }
        LOG.debug("logging in to {} as user '{}'", base, user);
        return exchange("POST", sessionsPath, body, false, false, false, 0).thenAccept(response -> {
            token = token(response);
            session = sessionLink(response);
            LOG.debug("logged in to {}; the session is logged out at the end", base);
        }).exceptionallyCompose(error -> {
            RedfishException failure = unwrap(error);
            if (failure.kind() == Kind.NOT_FOUND || failure.status() == 405) {
                LOG.info("Redfish service {} has no SessionService ({}); using HTTP Basic", base, failure.status());
                mode = AuthMode.BASIC;
                return CompletableFuture.completedFuture(null);
            }
            if (failure.status() == 401 && sessions.isEmpty()) {
                LOG.info("Redfish service {} answered 401 to a session login at {}, a path it never advertised; "
                        + "trying HTTP Basic", base, sessionsPath);
                mode = AuthMode.BASIC;
                return CompletableFuture.completedFuture(null);
            }
            if (failure.kind() == Kind.AUTHENTICATION) {
                return CompletableFuture.failedFuture(new RedfishException(Kind.AUTHENTICATION, failure.status(),
                        "Redfish service " + base + " refused the login of user '" + user + "': check username and "
                                + "password (" + failure.getMessage() + ")"));
            }
            return CompletableFuture.failedFuture(failure);
        });
    }

    /**
     * GETs a resource and reads its JSON: an object, or a missing node for an empty body.
     *
     * @param path a path on this service, or a link the service sent
     */
    public CompletableFuture<JsonNode> get(String path) {
        return exchange("GET", path, null, true, false, false, 0).thenApply(this::json);
    }

    /**
     * POSTs a JSON body (an action) and answers the response body, or a missing node when there is none. A
     * {@code 202} with a task monitor is followed until the task ends.
     */
    public CompletableFuture<JsonNode> post(String path, Object body) {
        byte[] bytes;
        try {
            bytes = RedfishJson.MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot encode the request body for " + path, e);
        }
        return exchange("POST", path, bytes, true, false, false, 0).thenCompose(response -> {
            Optional<String> monitor = response.headers().firstValue("Location");
            if (response.statusCode() == 202 && monitor.isPresent()) {
                return followTask(monitor.get());
            }
            return CompletableFuture.completedFuture(json(response));
        });
    }

    /** Logs the session out (DELETE), once, whatever happened before; failures are logged, never thrown. */
    public CompletableFuture<Void> close() {
        if (closed) {
            return CompletableFuture.completedFuture(null);
        }
        closed = true;
        URI location = session;
        String current = token;
        if (location == null || current == null) {
            return CompletableFuture.completedFuture(null);
        }
        HttpRequest request = HttpRequest.newBuilder(location).timeout(LOGOUT_TIMEOUT).DELETE()
                .header("X-Auth-Token", current).header("OData-Version", "4.0").build();
        requests.incrementAndGet();
        long start = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, error) -> {
            logExchange("DELETE", location, response, error, start);
            if (error != null || response.statusCode() >= 300) {
                LOG.warn("logout from Redfish service {} failed ({}); the session stays until the service expires it",
                        base, error != null ? error.getClass().getSimpleName() : "HTTP " + response.statusCode());
            }
            token = null;
            return null;
        });
    }

    private CompletableFuture<JsonNode> followTask(String monitor) {
        return exchange("GET", monitor, null, true, true, false, 0).thenCompose(response -> {
            if (response.statusCode() == 202) {
                Duration wait = retryAfter(response).orElse(TASK_POLL);
                if (System.nanoTime() + wait.toNanos() - deadline >= 0) {
                    return CompletableFuture.failedFuture(new RedfishException(Kind.TIMEOUT, 202, "the task at "
                            + Text.excerpt(monitor, Text.VALUE) + " on " + base + " had not finished, and the service"
                            + " asked to poll again in " + wait.toSeconds() + " s, past the action's deadline"));
                }
                return later(wait, () -> followTask(monitor));
            }
            JsonNode task = json(response);
            String where = "the task at " + Text.excerpt(monitor, Text.VALUE) + " on " + base;
            String state = RedfishJson.text(task, where, "TaskState").orElse("");
            if (state.equals("Exception") || state.equals("Killed") || state.equals("Cancelled")) {
                return CompletableFuture.failedFuture(new RedfishException(Kind.SERVICE, response.statusCode(),
                        "Redfish task " + Text.excerpt(monitor, Text.VALUE) + " on " + base + " ended " + state + ": "
                                + messagesOf(task)));
            }
            return CompletableFuture.completedFuture(task);
        });
    }

    /**
     * Sends one request with retries for 503, one re-login for 401, and one resend on a new connection when the
     * service closed a kept-alive one without answering; fails with a RedfishException.
     */
    private CompletableFuture<HttpResponse<byte[]>> exchange(String method, String path, byte[] body,
            boolean authenticated, boolean relogged, boolean resent, int unanswered) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return CompletableFuture.failedFuture(new RedfishException(Kind.TIMEOUT, 0, method + " " + path
                    + " on " + base + " not sent: the deadline has passed"));
        }
        Duration timeout = Duration.ofNanos(Math.min(left, requestTimeout.toNanos()));
        URI uri;
        try {
            uri = resolve(path);
        } catch (RedfishException e) {
            return CompletableFuture.failedFuture(e);
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Accept", "application/json").header("OData-Version", "4.0");
        if (authenticated) {
            authorize(builder);
        }
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        requests.incrementAndGet();
        HttpResponse.BodyHandler<byte[]> bounded = BoundedBody.handler(maxResponseSize,
                status -> tooLarge(method, uri, status));
        long start = System.nanoTime();
        return http.sendAsync(builder.build(), bounded)
                .handle((response, error) -> {
                    logExchange(method, uri, response, error, start);
                    if (error == null) {
                        return CompletableFuture.completedFuture(response);
                    }
                    if (!resent && closedWithoutAnswer(error) && System.nanoTime() < deadline) {
                        LOG.info("{} closed the connection without answering {} {}; sending it once more on a new"
                                + " connection", base, method, path);
                        return exchange(method, path, body, authenticated, relogged, true, unanswered);
                    }
                    if (unansweredCause(error) && retriable(method, authenticated)) {
                        Duration wait = backoff(unanswered);
                        if (System.nanoTime() + wait.toNanos() - deadline < 0) {
                            LOG.info("{} gave no answer to {} {} within {} ms (try {}); trying again in {} ms", base,
                                    method, Text.excerpt(path, Text.VALUE), timeout.toMillis(), unanswered + 1,
                                    wait.toMillis());
                            return later(wait, () -> exchange(method, path, body, authenticated, relogged, resent,
                                    unanswered + 1));
                        }
                    }
                    throw transportFailure(method, path, timeout, unanswered + 1, error);
                })
                .thenCompose(pending -> pending)
                .thenCompose(response -> {
                    int status = response.statusCode();
                    if (status < 300) {
                        return CompletableFuture.completedFuture(response);
                    }
                    if (status == 503) {
                        Duration wait = retryAfter(response).orElse(DEFAULT_RETRY_AFTER);
                        if (System.nanoTime() + wait.toNanos() < deadline) {
                            return later(wait, () -> exchange(method, path, body, authenticated, relogged, resent, unanswered));
                        }
                    }
                    if (status == 401 && authenticated && mode == AuthMode.SESSION && token == null && !relogged) {
                        // before any login (the service root): a service that checks Basic before routing
                        LOG.info("Redfish service {} answered 401 to {} {} sent without credentials; trying HTTP "
                                + "Basic", base, method, Text.excerpt(path, Text.VALUE));
                        mode = AuthMode.BASIC;
                        return exchange(method, path, body, true, true, resent, unanswered);
                    }
                    if (status == 401 && authenticated && mode == AuthMode.SESSION && token != null && !relogged) {
                        LOG.info("Redfish session on {} expired (401); logging in again", base);
                        token = null;
                        return login(Optional.of(sessionsPath), true)
                                .thenCompose(v -> exchange(method, path, body, true, true, resent, unanswered));
                    }
                    throw new RedfishException(RedfishException.kindOf(status), status, method + " "
                            + Text.excerpt(path, Text.VALUE) + " on " + base + " answered HTTP " + status + ": "
                            + ErrorBody.describe(response.body(), password) + hint(status));
                });
    }

    /**
     * One debug line per request: method, path (no query, no header, no body: they may hold credentials), status or
     * failure, and time taken.
     */
    private static void logExchange(String method, URI uri, HttpResponse<?> response, Throwable error, long start) {
        if (!LOG.isDebugEnabled()) {
            return;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        String path = Text.excerpt(uri.getRawPath(), Text.VALUE);
        if (response != null) {
            LOG.debug("{} {} -> {} in {} ms", method, path, response.statusCode(), millis);
        } else {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            LOG.debug("{} {} -> no answer ({}) after {} ms", method, path, cause.getClass().getSimpleName(), millis);
        }
    }

    private void authorize(HttpRequest.Builder builder) {
        String current = token;
        if (current != null) {
            builder.header("X-Auth-Token", current);
        } else if (mode == AuthMode.BASIC) {
            byte[] name = user.getBytes(StandardCharsets.UTF_8);
            byte[] secret = password.revealBytes();
            byte[] pair = Arrays.copyOf(name, name.length + 1 + secret.length);
            pair[name.length] = ':';
            System.arraycopy(secret, 0, pair, name.length + 1, secret.length);
            Arrays.fill(secret, (byte) 0);
            builder.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(pair));
            Arrays.fill(pair, (byte) 0);
        }
    }

    private static String hint(int status) {
        return switch (status) {
            case 401, 403 -> "; check username, password and the account's role";
            case 404 -> "; check systems_uri or plug";
            case 503 -> "; the service stayed unavailable until the deadline";
            default -> "";
        };
    }

    /**
     * Whether the service closed the connection without a byte of answer (a kept-alive connection it had dropped):
     * not a timeout, a refused connection or a TLS failure. The request was most likely not acted on, and what remedy
     * sends is safe to send twice (a read, a reset to the same state); at worst a repeated login leaves one session
     * to the service's own timeout.
     */
    private static boolean closedWithoutAnswer(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof IOException && !(cause instanceof HttpTimeoutException)
                && !(cause instanceof ConnectException) && !(cause instanceof SSLException);
    }

    /**
     * Whether a request that got no answer may be sent again: a read, or the login (at worst one more session, which
     * the service expires). An action (an authenticated POST) may have been received and acted on: it is never sent
     * again here; the caller reads the state back before deciding to send it again.
     */
    private static boolean retriable(String method, boolean authenticated) {
        return method.equals("GET") || !authenticated;
    }

    /** Whether a request failed because no answer came within its timeout. */
    private static boolean unansweredCause(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof HttpTimeoutException;
    }

    /** The wait before the next try of an unanswered request: 250 ms, doubling, at most 4 s. */
    static Duration backoff(int unanswered) {
        Duration wait = FIRST_BACKOFF.multipliedBy(1L << Math.min(unanswered, 10));
        return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
    }

    private RedfishException transportFailure(String method, String path, Duration timeout, int tries,
            Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof RedfishException redfish) {
            return redfish;
        }
        if (cause instanceof CancellationException) {
            return new RedfishException(Kind.CANCELLED, 0, method + " " + path + " on " + base + " was cancelled");
        }
        if (cause instanceof HttpTimeoutException) {
            return new RedfishException(Kind.TIMEOUT, 0, method + " " + path + " on " + base + " got no answer within "
                    + (tries > 1 ? requestTimeout.toMillis() + " ms (request_timeout) in " + tries + " tries, the last"
                    + " cut at the action's deadline" : timeout.toMillis() + " ms"), cause);
        }
        if (cause instanceof IOException && System.nanoTime() - deadline >= 0) {
            // the client tears the exchange down at the request's timeout, which is the action's deadline here: the
            // reader may see the cut connection before the timeout is reported, and it is still the deadline
            return new RedfishException(Kind.TIMEOUT, 0, method + " " + path + " on " + base + " got no complete "
                    + "answer before the action's deadline (" + cause.getMessage() + ")", cause);
        }
        if (cause instanceof SSLException) {
            return new RedfishException(Kind.TRANSPORT, 0, "TLS with " + base + " failed: " + TlsTrust.refusal(cause)
                    .orElse(cause.getMessage() + "; give ca_file or tls_fingerprint for a self-signed certificate "
                            + "(ssl_insecure=true skips the check, unsafe)"), cause);
        }
        String what = cause instanceof ConnectException ? "cannot connect" : "transport error";
        return new RedfishException(Kind.TRANSPORT, 0, method + " " + path + " on " + base + ": " + what + " ("
                + cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
                + "); check ip, ipport and ssl", cause);
    }

    private JsonNode json(HttpResponse<byte[]> response) {
        return RedfishJson.parse(response.body(), response.request().method() + " "
                + Text.excerpt(response.request().uri().getRawPath(), Text.VALUE) + " on " + base,
                response.statusCode());
    }

    private RedfishException tooLarge(String method, URI uri, int status) {
        return new RedfishException(Kind.SERVICE, status, method + " " + Text.excerpt(uri.toString(), Text.DETAIL)
                + " answered HTTP " + status + " with a body larger than " + maxResponseSize + " bytes, the limit "
                + MAX_RESPONSE_SIZE + " sets; it was not read further. Raise " + MAX_RESPONSE_SIZE + " if the service"
                + " really sends resources this large");
    }

    /**
     * The URI of a link the service sent (or a path of the configuration): its path and query on this service's
     * base URI, whatever scheme, host and port it names. A relative link is taken from the root.
     *
     * @throws RedfishException of kind SERVICE if it is not a URI reference with a path
     */
    public URI resolve(String link) {
        URI reference;
        try {
            if (!Text.wellFormed(link)) {
                throw new URISyntaxException(link, "a lone surrogate is no character");
            }
            // non-ASCII characters percent-encoded as UTF-8, as they go on the wire
            reference = new URI(new URI(link.strip()).toASCIIString());
        } catch (URISyntaxException e) {
            throw RedfishException.malformed(0, base + " sent the link '" + Text.excerpt(link, Text.VALUE)
                    + "', which is not a URI reference (" + Text.excerpt(e.getReason(), Text.VALUE) + ")");
        }
        String path = reference.getRawPath();
        if (reference.isOpaque() || path == null || path.isEmpty()) {
            throw RedfishException.malformed(0, base + " sent the link '" + Text.excerpt(link, Text.VALUE)
                    + "', which names no path on the service");
        }
        String query = reference.getRawQuery();
        return URI.create(base.getScheme() + "://" + base.getRawAuthority() + (path.startsWith("/") ? "" : "/") + path
                + (query == null ? "" : "?" + query));
    }

    /** The session token of a login's response: visible ASCII, as it is sent back in a header. */
    private String token(HttpResponse<?> response) {
        String value = response.headers().firstValue("X-Auth-Token").map(String::strip).orElse("");
        if (value.isEmpty()) {
            throw new RedfishException(Kind.SERVICE, response.statusCode(), "Redfish service " + base + " created a "
                    + "session but sent no X-Auth-Token; set auth=basic");
        }
        if (value.length() > MAX_TOKEN_LENGTH || !value.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
            // never the token itself in a message: it is a credential
            throw RedfishException.malformed(response.statusCode(), "Redfish service " + base + " created a session"
                    + " but its X-Auth-Token (" + value.length() + " characters) is not a header value it can be sent"
                    + " back in (at most " + MAX_TOKEN_LENGTH + " visible ASCII characters); set auth=basic");
        }
        return value;
    }

    /**
     * Where to log the new session out: its {@code Location}, else the {@code @odata.id} of the body; {@code null}
     * (with a warning) if the service named neither, which leaves the session to the service's timeout.
     */
    private URI sessionLink(HttpResponse<byte[]> response) {
        for (String header : response.headers().allValues("Location")) {
            try {
                return resolve(header);
            } catch (RedfishException e) {
                LOG.debug("session Location of {}: {}", base, e.getMessage());
            }
        }
        try {
            Optional<String> link = RedfishJson.text(json(response), "the new session on " + base, "@odata.id");
            if (link.isPresent()) {
                return resolve(link.get());
            }
        } catch (RedfishException e) {
            LOG.debug("session body of {}: {}", base, e.getMessage());
        }
        LOG.warn("Redfish service {} named no usable link to the new session; it cannot be logged out and stays until"
                + " the service expires it", base);
        return null;
    }

    /** The messages of a task, at most {@link ErrorBody#MESSAGES}, on one line. */
    private static String messagesOf(JsonNode task) {
        List<String> messages = new ArrayList<>();
        JsonNode list = task.path("Messages");
        for (int i = 0; list.isArray() && i < list.size() && messages.size() < ErrorBody.MESSAGES; i++) {
            JsonNode message = list.get(i);
            JsonNode text = message.path("Message").isTextual() ? message.path("Message") : message.path("MessageId");
            if (text.isTextual() && !text.asText().isBlank()) {
                messages.add(Text.excerpt(text.asText(), Text.DETAIL));
            }
        }
        return messages.isEmpty() ? "no messages" : Text.excerpt(String.join("; ", messages), Text.BODY);
    }

    /** The {@code Retry-After} of a response, if it is a number of seconds; see {@link #retryAfter(String)}. */
    private static Optional<Duration> retryAfter(HttpResponse<?> response) {
        return response.headers().firstValue("Retry-After").flatMap(RedfishConnection::retryAfter);
    }

    /**
     * A {@code Retry-After} value: a whole number of seconds, at most {@link #MAX_RETRY_AFTER}; empty if it is not
     * one (an HTTP date, a sign, a fraction).
     */
    static Optional<Duration> retryAfter(String value) {
        String digits = value.strip();
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        // more digits than a long holds is a long wait too
        long seconds = digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
        return Optional.of(seconds > MAX_RETRY_AFTER.toSeconds() ? MAX_RETRY_AFTER : Duration.ofSeconds(seconds));
    }

    private <T> CompletableFuture<T> later(Duration wait, java.util.function.Supplier<CompletableFuture<T>> next) {
        Executor delayed = CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS, executor);
        return CompletableFuture.supplyAsync(next, delayed).thenCompose(f -> f);
    }

    /** The RedfishException in a future's failure. */
    public static RedfishException unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof java.util.concurrent.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RedfishException redfish) {
            return redfish;
        }
        if (cause instanceof CancellationException) {
            return new RedfishException(Kind.CANCELLED, 0, "cancelled");
        }
        return new RedfishException(Kind.SERVICE, 0, cause.getClass().getSimpleName() + ": " + cause.getMessage(),
                cause);
    }
}
