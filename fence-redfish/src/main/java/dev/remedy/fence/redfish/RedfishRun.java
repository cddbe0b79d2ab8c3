package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.client.RedfishConnection;
import dev.remedy.fence.redfish.client.RedfishException;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One action against one Redfish service, as a chain of futures: read the service root, log in, find the
 * system (by {@code systems_uri}, by {@code plug}, or the only one; several without a choice is a refusal),
 * read {@code PowerState}, reset with a {@code ResetType} the system advertises, poll {@code PowerState} until
 * the new state is read or the time is up, and log out in every case. REBOOT is OFF confirmed then ON, never
 * {@code ForceRestart}, which leaves no evidence of OFF.
 */
final class RedfishRun {

    private static final System.Logger LOG = System.getLogger(RedfishRun.class.getName());
    private static final String ROOT = "/redfish/v1/";
    private static final List<String> ASSUMED_RESET_TYPES = List.of("On", "ForceOff", "GracefulShutdown", "ForceOn");

    private final Executor executor;
    private final RedfishSettings settings;
    private final FenceRequest request;
    private final FenceContext context;
    private final long deadline;
    private final RedfishConnection connection;
    private volatile boolean cancelled;
    private volatile PowerState lastRead = PowerState.UNKNOWN;

    RedfishRun(HttpClient http, Executor executor, RedfishSettings settings, FenceRequest request,
            FenceContext context) {
        this.executor = executor;
        this.settings = settings;
        this.request = request;
        this.context = context;
        this.deadline = System.nanoTime() + context.remaining().toNanos();
        this.connection = new RedfishConnection(http, settings.base(), settings.user(), settings.password(),
                settings.auth(), settings.requestTimeout(), deadline, executor);
    }

    /** Starts the action; the future never fails: every failure is an outcome. */
    CompletableFuture<FenceOutcome> start() {
        if (settings.trust().equals("insecure")) {
            LOG.log(System.Logger.Level.WARNING, () -> "TLS certificate verification is OFF for Redfish service "
                    + settings.base() + " (ssl_insecure=true): anyone on the path can impersonate the BMC; use "
                    + "ca_file or tls_fingerprint instead");
        }
        context.progress("connecting to Redfish service " + settings.base());
        return connection.get(ROOT)
                .thenCompose(root -> connection.login(link(root, "Links", "Sessions"))
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
        String systems = link(root, "Systems").orElse("/redfish/v1/Systems");
        FenceAction action = request.action();
        if (action == FenceAction.LIST) {
            return list(systems);
        }
        if (action == FenceAction.MONITOR) {
            return connection.get(systems).thenApply(collection -> FenceOutcome.succeeded(PowerState.UNKNOWN,
                    "Redfish service " + settings.base() + " (Redfish " + root.path("RedfishVersion").asText("?")
                            + ") answered and lists " + members(collection).size() + " system(s)"));
        }
        return systemPath(systems).thenCompose(this::readSystem).thenCompose(system -> switch (action) {
            case STATUS -> CompletableFuture.completedFuture(FenceOutcome.succeeded(system.power(), "system "
                    + system.path() + " on " + settings.base() + " reports power " + system.power()));
            case OFF -> off(system);
            case ON -> on(system);
            default -> off(system).thenCompose(off -> off.isSuccess() ? readSystem(system.path()).thenCompose(this::on)
                    .thenApply(on -> on.isSuccess() ? FenceOutcome.succeeded(PowerState.ON, "system " + system.path()
                            + " on " + settings.base() + " powered off (confirmed) and on again (confirmed)") : on)
                    : CompletableFuture.completedFuture(off));
        });
    }

    private CompletableFuture<FenceOutcome> list(String systems) {
        return connection.get(systems).thenCompose(collection -> {
            List<CompletableFuture<Plug>> plugs = members(collection).stream().map(path -> connection.get(path)
                    .thenApply(system -> new Plug(system.path("Id").asText(lastSegment(path)),
                            system.path("Name").asText(""), powerOf(system)))).toList();
            return CompletableFuture.allOf(plugs.toArray(CompletableFuture[]::new)).thenApply(v -> FenceOutcome
                    .succeeded(PowerState.UNKNOWN, plugs.size() + " system(s) on " + settings.base())
                    .withPlugs(plugs.stream().map(CompletableFuture::join).toList()));
        });
    }

    /** The system's path: systems_uri, the member named by plug, or the only member. */
    private CompletableFuture<String> systemPath(String systems) {
        if (settings.systemsUri().isPresent()) {
            return CompletableFuture.completedFuture(settings.systemsUri().get());
        }
        return connection.get(systems).thenApply(collection -> {
            List<String> paths = members(collection);
            List<String> ids = paths.stream().map(RedfishRun::lastSegment).toList();
            Optional<String> plug = settings.plug();
            if (plug.isPresent()) {
                int at = ids.indexOf(plug.get());
                if (at < 0) {
                    throw new RedfishException(RedfishException.Kind.NOT_FOUND, 404, "Redfish service "
                            + settings.base() + " has no system '" + plug.get() + "'; its systems are " + ids
                            + ": set plug to one of them");
                }
                return paths.get(at);
            }
            if (paths.size() == 1) {
                return paths.get(0);
            }
            throw new RedfishException(RedfishException.Kind.REFUSED, 0, "Redfish service " + settings.base()
                    + " has " + paths.size() + " systems " + ids + " and no plug or systems_uri names one; remedy "
                    + "never guesses which machine to power off: set plug");
        });
    }

    private CompletableFuture<SystemView> readSystem(String path) {
        return connection.get(path).thenApply(system -> {
            JsonNode reset = system.path("Actions").path("#ComputerSystem.Reset");
            List<String> allowed = new ArrayList<>();
            reset.path("ResetType@Redfish.AllowableValues").forEach(value -> allowed.add(value.asText()));
            String target = reset.path("target").asText(path.replaceAll("/$", "") + "/Actions/ComputerSystem.Reset");
            lastRead = powerOf(system);
            return new SystemView(path, lastRead, target, allowed.isEmpty() ? ASSUMED_RESET_TYPES : allowed);
        });
    }

    private CompletableFuture<FenceOutcome> off(SystemView system) {
        if (system.power() == PowerState.OFF) {
            return done(FenceOutcome.succeeded(PowerState.OFF, "system " + system.path() + " on " + settings.base()
                    + " is already off"));
        }
        CompletableFuture<FenceOutcome> graceful = !settings.gracefulOffTimeout().isZero()
                && system.allowed().contains("GracefulShutdown")
                ? reset(system, "GracefulShutdown").thenCompose(v -> waitFor(system, PowerState.OFF,
                        settings.gracefulOffTimeout()))
                : done(FenceOutcome.failed(system.power(), "graceful shutdown not tried"));
        return graceful.thenCompose(soft -> {
            if (soft.isSuccess()) {
                return done(soft);
            }
            if (!system.allowed().contains("ForceOff")) {
                return done(FenceOutcome.failed(system.power(), "system " + system.path() + " on " + settings.base()
                        + " does not advertise ResetType ForceOff (it offers " + system.allowed() + "); it cannot be "
                        + "fenced by Redfish"));
            }
            return reset(system, "ForceOff").thenCompose(v -> waitFor(system, PowerState.OFF,
                    settings.powerTimeout()));
        });
    }

    private CompletableFuture<FenceOutcome> on(SystemView system) {
        if (system.power() == PowerState.ON) {
            return done(FenceOutcome.succeeded(PowerState.ON, "system " + system.path() + " on " + settings.base()
                    + " is already on"));
        }
        Optional<String> type = system.allowed().contains("On") ? Optional.of("On")
                : system.allowed().contains("ForceOn") ? Optional.of("ForceOn") : Optional.empty();
        if (type.isEmpty()) {
            return done(FenceOutcome.failed(system.power(), "system " + system.path() + " on " + settings.base()
                    + " advertises neither ResetType On nor ForceOn (it offers " + system.allowed() + ")"));
        }
        return reset(system, type.get()).thenCompose(v -> waitFor(system, PowerState.ON, settings.powerTimeout()));
    }

    private CompletableFuture<JsonNode> reset(SystemView system, String type) {
        if (cancelled) {
            return CompletableFuture.failedFuture(new RedfishException(RedfishException.Kind.CANCELLED, 0,
                    "cancelled before ResetType " + type));
        }
        context.progress("sending ResetType " + type + " to system " + system.path() + " on " + settings.base());
        return connection.post(system.target(), Map.of("ResetType", type));
    }

    private CompletableFuture<FenceOutcome> waitFor(SystemView system, PowerState wanted, Duration limit) {
        long until = System.nanoTime() + limit.toNanos();
        context.progress("waiting for system " + system.path() + " to report PowerState " + wanted);
        return poll(system, wanted, until, limit);
    }

    private CompletableFuture<FenceOutcome> poll(SystemView system, PowerState wanted, long until, Duration limit) {
        return readSystem(system.path()).thenCompose(now -> {
            if (now.power() == wanted) {
                return done(FenceOutcome.succeeded(wanted, "system " + system.path() + " on " + settings.base()
                        + " reports PowerState " + wanted + " (confirmed)"));
            }
            long left = Math.min(until, deadline) - System.nanoTime();
            if (left <= 0 || cancelled) {
                boolean budgetOver = deadline - System.nanoTime() <= 0;
                String detail = "system " + system.path() + " on " + settings.base() + " still reports PowerState "
                        + now.power() + " after " + (budgetOver ? "the action's deadline" : limit.toMillis()
                                + " ms (power_timeout)");
                return done(budgetOver ? FenceOutcome.of(FenceStatus.TIMED_OUT, now.power(), detail)
                        : FenceOutcome.failed(now.power(), detail));
            }
            long wait = Math.min(settings.pollInterval().toNanos(), left);
            Executor later = CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS, executor);
            return CompletableFuture.supplyAsync(() -> poll(system, wanted, until, limit), later)
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
        return FenceOutcome.of(status, lastRead, request.action() + " failed: " + failure.getMessage())
                .withCause(failure);
    }

    private static CompletableFuture<FenceOutcome> done(FenceOutcome outcome) {
        return CompletableFuture.completedFuture(outcome);
    }

    private static PowerState powerOf(JsonNode system) {
        return switch (system.path("PowerState").asText("")) {
            case "On" -> PowerState.ON;
            case "Off" -> PowerState.OFF;
            default -> PowerState.UNKNOWN;
        };
    }

    private static List<String> members(JsonNode collection) {
        List<String> paths = new ArrayList<>();
        collection.path("Members").forEach(member -> {
            String path = member.path("@odata.id").asText("");
            if (!path.isEmpty()) {
                paths.add(path);
            }
        });
        return paths;
    }

    private static Optional<String> link(JsonNode node, String... fields) {
        JsonNode at = node;
        for (String field : fields) {
            at = at.path(field);
        }
        String path = at.path("@odata.id").asText("");
        return path.isEmpty() ? Optional.empty() : Optional.of(path);
    }

    private static String lastSegment(String path) {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    /** What the run needs of a ComputerSystem. */
    private record SystemView(String path, PowerState power, String target, List<String> allowed) {
    }
}
