package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.RedfishTarget.View;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.fence.redfish.internal.client.RedfishJson;
import dev.remedy.fence.redfish.internal.client.Text;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One action against one Redfish service, as a chain of futures: read the service root, log in, find the
 * target (a system or an outlet; several without a choice is a refusal), read its {@code PowerState}, send the
 * action with a value the resource advertises, poll {@code PowerState} until the new state is read or the time
 * is up, and log out in every case. REBOOT is OFF confirmed then ON, never a restart, which leaves no evidence
 * of OFF.
 */
final class RedfishRun {

    private static final Logger LOG = LoggerFactory.getLogger(RedfishRun.class);
    private static final String ROOT = "/redfish/v1/";

    private final Executor executor;
    private final RedfishSettings settings;
    private final RedfishTarget target;
    private final FenceRequest request;
    private final FenceContext context;
    private final long deadline;
    private final RedfishConnection connection;
    private volatile boolean cancelled;
    private volatile PowerState lastRead = PowerState.UNKNOWN;

    RedfishRun(HttpClient http, Executor executor, RedfishSettings settings, RedfishTarget target,
            FenceRequest request, FenceContext context) {
        this.executor = executor;
        this.settings = settings;
        this.target = target;
        this.request = request;
        this.context = context;
        this.deadline = System.nanoTime() + context.remaining().toNanos();
        this.connection = new RedfishConnection(http, settings.base(), settings.user(), settings.password(),
                settings.auth(), settings.requestTimeout(), settings.maxResponseSize(), deadline, executor);
    }

    /** Starts the action; the future never fails: every failure is an outcome. */
    CompletableFuture<FenceOutcome> start() {
        if (settings.trust().equals("insecure")) {
            LOG.warn("TLS certificate verification is OFF for Redfish service {} (ssl_insecure=true): anyone on the"
                    + " path can impersonate the BMC; use ca_file or tls_fingerprint instead", settings.base());
        }
        context.progress("connecting to Redfish service " + settings.base());
        return connection.get(ROOT)
                .thenCompose(root -> connection.login(RedfishTarget.link(root, "the service root on "
                        + settings.base(), "Links", "Sessions"), root.has("SessionService"))
                        .thenCompose(v -> act(root)))
                .exceptionally(this::outcomeOf)
                .thenCompose(outcome -> connection.close().thenApply(v -> outcome))
                .thenApply(outcome -> outcome.withAttempts(connection.requests()).withElapsed(context.elapsed()));
    }

    /** Stops the action at its next step; the session is still logged out. */
    void cancel() {
        cancelled = true;
    }

    private CompletableFuture<FenceOutcome> act(JsonNode root) {
        FenceAction action = request.action();
        if (action == FenceAction.LIST) {
            return target.list(connection, root, settings).thenApply(plugs -> FenceOutcome.succeeded(
                    PowerState.UNKNOWN, plugs.size() + " " + target.noun() + "(s) on " + settings.base())
                    .withPlugs(plugs));
        }
        if (action == FenceAction.MONITOR) {
            return target.count(connection, root, settings).thenApply(count -> FenceOutcome.succeeded(
                    PowerState.UNKNOWN, "Redfish service " + settings.base() + " (Redfish "
                            + RedfishJson.text(root, "the service root on " + settings.base(), "RedfishVersion")
                                    .map(version -> Text.excerpt(version, Text.VALUE)).orElse("?")
                            + ") answered and lists " + count + " "
                            + target.noun() + "(s)"));
        }
        return target.locate(connection, root, settings).thenCompose(this::read).thenCompose(view -> switch (action) {
            case STATUS -> done(FenceOutcome.succeeded(view.power(), describe(view) + " reports power "
                    + view.power()));
            default -> view.action().isPresent() ? power(view) : done(FenceOutcome.of(FenceStatus.UNSUPPORTED,
                    view.power(), describe(view) + " advertises no " + target.actionName() + " action: it reports "
                    + "its power but cannot switch it (a metered " + target.noun() + "); remedy cannot power it"));
        });
    }

    /** OFF, ON or REBOOT of a resource that advertises its power action. */
    private CompletableFuture<FenceOutcome> power(View view) {
        return switch (request.action()) {
            case OFF -> off(view);
            case ON -> on(view);
            default -> off(view).thenCompose(off -> off.isSuccess() ? read(view.path()).thenCompose(this::on)
                    .thenApply(on -> on.isSuccess() ? FenceOutcome.succeeded(PowerState.ON, describe(view)
                            + " powered off (confirmed) and on again (confirmed)") : on) : done(off));
        };
    }

    /** The action values a resource offers, as the service sent them but fit for a message. */
    private static String offered(View view) {
        return view.allowed().stream().limit(RedfishTarget.LISTED).map(value -> Text.excerpt(value, Text.VALUE))
                .toList() + (view.allowed().size() > RedfishTarget.LISTED ? " and " + (view.allowed().size()
                        - RedfishTarget.LISTED) + " more" : "");
    }

    private String describe(View view) {
        return target.noun() + " " + view.path() + " on " + settings.base();
    }

    private CompletableFuture<View> read(String path) {
        LOG.debug("reading the PowerState of {} {}", target.noun(), Text.excerpt(path, Text.VALUE));
        return connection.get(path).thenApply(resource -> {
            View view = target.view(path, resource, connection.service());
            lastRead = view.power();
            LOG.debug("{} reports PowerState {}", describe(view), view.power());
            return view;
        });
    }

    private CompletableFuture<FenceOutcome> off(View view) {
        if (view.power() == PowerState.OFF) {
            return done(FenceOutcome.succeeded(PowerState.OFF, describe(view) + " is already off"));
        }
        Optional<String> graceful = settings.gracefulOffTimeout().isZero() ? Optional.empty()
                : target.gracefulOff(view);
        CompletableFuture<FenceOutcome> soft = graceful.isEmpty()
                ? done(FenceOutcome.failed(view.power(), "graceful shutdown not tried"))
                : send(view, graceful.get(), PowerState.OFF).thenCompose(v -> waitFor(view, PowerState.OFF,
                        settings.gracefulOffTimeout()));
        return soft.thenCompose(result -> {
            if (result.isSuccess()) {
                return done(result);
            }
            Optional<String> force = target.forceOff(view);
            if (force.isEmpty()) {
                return done(FenceOutcome.failed(view.power(), describe(view) + " does not advertise " + forceName()
                        + " among its " + target.actionField() + " values " + offered(view) + "; it cannot be "
                        + "fenced by Redfish"));
            }
            return send(view, force.get(), PowerState.OFF).thenCompose(v -> waitFor(view, PowerState.OFF, settings.powerTimeout()));
        });
    }

    private String forceName() {
        return target.actionField() + " " + (target instanceof OutletTarget ? "Off" : "ForceOff");
    }

    private CompletableFuture<FenceOutcome> on(View view) {
        if (view.power() == PowerState.ON) {
            return done(FenceOutcome.succeeded(PowerState.ON, describe(view) + " is already on"));
        }
        Optional<String> value = target.on(view);
        if (value.isEmpty()) {
            return done(FenceOutcome.failed(view.power(), describe(view) + " advertises no " + target.actionField()
                    + " that powers on (it offers " + offered(view) + ")"));
        }
        return send(view, value.get(), PowerState.ON).thenCompose(v -> waitFor(view, PowerState.ON, settings.powerTimeout()));
    }

    /**
     * Sends the power action. The connection never sends an action twice by itself, as the service may have received
     * it: when it gets no answer, the power is read back first (reads are retried), and the action is sent again only
     * if the resource is not yet at {@code wanted}, while the deadline allows.
     */
    private CompletableFuture<JsonNode> send(View view, String value, PowerState wanted) {
        if (cancelled) {
            return CompletableFuture.failedFuture(new RedfishException(RedfishException.Kind.CANCELLED, 0,
                    "cancelled before " + target.actionField() + " " + value));
        }
        context.progress("sending " + target.actionField() + " " + value + " to " + describe(view));
        return connection.post(view.action().orElseThrow(), Map.of(target.actionField(), value))
                .whenComplete((answer, error) -> {
                    if (error == null) {
                        LOG.debug("{} accepted {} {}", describe(view), target.actionField(), value);
                    }
                })
                .exceptionallyCompose(error -> {
                    RedfishException failure = RedfishConnection.unwrap(error);
                    // only a request that got no answer: a task that outlives the deadline was accepted, not lost
                    boolean unanswered = failure.kind() == RedfishException.Kind.TIMEOUT
                            && failure.getCause() instanceof HttpTimeoutException;
                    if (!unanswered || System.nanoTime() - deadline >= 0) {
                        return CompletableFuture.failedFuture(failure);
                    }
                    context.progress("no answer to " + target.actionField() + " " + value + "; reading the power of "
                            + describe(view) + " before sending it again");
                    return read(view.path()).thenCompose(now -> now.power() == wanted
                            ? CompletableFuture.completedFuture(RedfishJson.MAPPER.missingNode())
                            : send(view, value, wanted));
                });
    }

    private CompletableFuture<FenceOutcome> waitFor(View view, PowerState wanted, Duration limit) {
        long until = System.nanoTime() + limit.toNanos();
        context.progress("waiting for " + describe(view) + " to report PowerState " + wanted);
        return poll(view.path(), wanted, until, limit);
    }

    private CompletableFuture<FenceOutcome> poll(String path, PowerState wanted, long until, Duration limit) {
        return read(path).thenCompose(now -> {
            if (now.power() == wanted) {
                return done(FenceOutcome.succeeded(wanted, describe(now) + " reports PowerState " + wanted
                        + " (confirmed)"));
            }
            long clock = System.nanoTime();
            long left = Math.min(until, deadline) - clock;
            long wait = Math.min(settings.pollInterval().toNanos(), left);
            // a read that would start at the deadline could only fail: report what was last read instead
            boolean budgetOver = deadline - clock - wait <= 0;
            if (left <= 0 || budgetOver || cancelled) {
                String detail = describe(now) + " still reports PowerState " + now.power() + " after "
                        + (budgetOver ? "the action's whole budget" : limit.toMillis() + " ms (power_timeout)");
                return done(budgetOver ? FenceOutcome.of(FenceStatus.TIMED_OUT, now.power(), detail)
                        : FenceOutcome.failed(now.power(), detail));
            }
            Executor later = CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS, executor);
            return CompletableFuture.supplyAsync(() -> poll(path, wanted, until, limit), later)
                    .thenCompose(next -> next);
        });
    }

    private FenceOutcome outcomeOf(Throwable error) {
        RedfishException failure = RedfishConnection.unwrap(error);
        FenceStatus status = switch (failure.kind()) {
            case TIMEOUT -> FenceStatus.TIMED_OUT;
            case REFUSED -> failure.status() == 0 ? FenceStatus.REFUSED : FenceStatus.FAILED;
            default -> FenceStatus.FAILED;
        };
        // the outcome's status says how the action ended: the detail says why, with no status word of its own
        return FenceOutcome.of(status, lastRead, failure.getMessage()).withCause(failure);
    }

    private static CompletableFuture<FenceOutcome> done(FenceOutcome outcome) {
        return CompletableFuture.completedFuture(outcome);
    }
}
