package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.internal.client.BmcLogin;
import dev.remedy.fence.ipmi.internal.client.IpmiClient;
import dev.remedy.fence.ipmi.internal.client.IpmiException;
import dev.remedy.fence.ipmi.internal.client.IpmiSession;
import dev.remedy.fence.ipmi.internal.protocol.ChassisControl;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One action against one BMC, as a chain of futures on the client's I/O threads: open (or reuse) a session,
 * read the power state, send Chassis Control, poll Get Chassis Status until the new state is read or the time
 * is up, and close the session in every case. Power changes succeed only when read back; a power cycle
 * succeeds only if an OFF was observed in between. The outcome's attempts are the tries of the action (the
 * Chassis Control commands sent, or 1 for a read or a setup that failed); datagrams, resends included, go to the
 * debug log only.
 */
final class IpmiRun {

    private static final Logger LOG = LoggerFactory.getLogger(IpmiRun.class);

    private final IpmiClient client;
    private final IpmiSettings settings;
    private final FenceRequest request;
    private final FenceContext context;
    private final IpmiFenceAgent agent;
    private final long deadline;
    private final AtomicInteger packets = new AtomicInteger();
    private final AtomicInteger controls = new AtomicInteger();
    private volatile CompletableFuture<IpmiSession> opening;
    private volatile IpmiSession session;
    private volatile boolean cancelled;
    private volatile PowerState lastRead = PowerState.UNKNOWN;

    IpmiRun(IpmiClient client, IpmiSettings settings, FenceRequest request, FenceContext context,
            IpmiFenceAgent agent) {
        this.client = client;
        this.settings = settings;
        this.request = request;
        this.context = context;
        this.agent = agent;
        this.deadline = System.nanoTime() + context.remaining().toNanos();
    }

    /** Starts the action; the future never fails: every failure is an outcome. */
    CompletableFuture<FenceOutcome> start() {
        FenceAction action = request.action();
        if (action == FenceAction.LIST) {
            return CompletableFuture.completedFuture(FenceOutcome.unsupported(IpmiFenceAgentProvider.TYPE, action));
        }
        CompletableFuture<IpmiSession> open;
        try {
            open = open();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(finish(FenceOutcome.failed(PowerState.UNKNOWN, e.getMessage())));
        }
        return open.thenCompose(this::act)
                .exceptionally(this::outcomeOf)
                .thenCompose(this::release)
                .thenApply(this::finish);
    }

    /** Stops the action: the session setup is abandoned or the session closed. */
    void cancel() {
        cancelled = true;
        CompletableFuture<IpmiSession> pending = opening;
        if (pending != null) {
            pending.cancel(false);
        }
        IpmiSession open = session;
        if (open != null) {
            open.close();
        }
    }

    private CompletableFuture<IpmiSession> open() {
        IpmiSession reused = agent.takeKept();
        if (reused != null) {
            context.progress("reusing the IPMI session with BMC " + settings.bmc());
            return CompletableFuture.completedFuture(reused);
        }
        context.progress("opening an IPMI session with BMC " + settings.bmc());
        InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("BMC address '" + settings.host() + "' does not resolve: check ip");
        }
        BmcLogin login = new BmcLogin(address, settings.user(), settings.password(), settings.bmcKey(),
                settings.suites(), settings.privilege(), true, settings.retransmitInterval());
        opening = client.open(login, min(settings.loginTimeout(), remaining()), packets);
        return opening;
    }

    private CompletableFuture<FenceOutcome> act(IpmiSession opened) {
        session = opened;
        if (cancelled) {
            opened.close();
        }
        return switch (request.action()) {
            case STATUS -> status().thenApply(power -> FenceOutcome.succeeded(power, "BMC " + settings.bmc()
                    + " reports power " + power));
            case MONITOR -> opened.deviceId(remaining()).thenApply(id -> FenceOutcome.succeeded(PowerState.UNKNOWN,
                    "BMC " + settings.bmc() + " answered Get Device ID (" + describeDevice(id) + ")"));
            case OFF -> switchTo(PowerState.OFF);
            case ON -> switchTo(PowerState.ON);
            case REBOOT -> settings.cycle() ? cycle() : switchTo(PowerState.OFF).thenCompose(off -> off.isSuccess()
                    ? switchTo(PowerState.ON).thenApply(this::afterReboot) : CompletableFuture.completedFuture(off));
            case LIST -> CompletableFuture.completedFuture(FenceOutcome.unsupported(IpmiFenceAgentProvider.TYPE,
                    request.action()));
        };
    }

    private FenceOutcome afterReboot(FenceOutcome on) {
        return on.isSuccess() ? FenceOutcome.succeeded(PowerState.ON, "BMC " + settings.bmc()
                + " powered the host off (confirmed) and on again (confirmed)") : on;
    }

    private CompletableFuture<FenceOutcome> switchTo(PowerState wanted) {
        return status().thenCompose(power -> {
            if (power == wanted) {
                return CompletableFuture.completedFuture(FenceOutcome.succeeded(power, "BMC " + settings.bmc()
                        + " reports the host already " + power));
            }
            if (wanted == PowerState.OFF && !settings.softOffTimeout().isZero()) {
                return control(ChassisControl.SOFT_SHUTDOWN)
                        .thenCompose(sent -> waitFor(wanted, settings.softOffTimeout()))
                        .thenCompose(soft -> soft.isSuccess() ? CompletableFuture.completedFuture(soft)
                                : control(ChassisControl.POWER_DOWN).thenCompose(sent -> waitFor(wanted,
                                        settings.powerTimeout())));
            }
            ChassisControl command = wanted == PowerState.OFF ? ChassisControl.POWER_DOWN : ChassisControl.POWER_UP;
            return control(command).thenCompose(sent -> waitFor(wanted, settings.powerTimeout()));
        });
    }

    /** A power cycle; one the BMC refuses (as many do while the host is off) reports the power read back. */
    private CompletableFuture<FenceOutcome> cycle() {
        return control(ChassisControl.POWER_CYCLE)
                .handle((sent, error) -> error)
                .thenCompose(error -> error == null
                        ? pollCycle(false, System.nanoTime() + settings.powerTimeout().toNanos())
                        : readBack().thenApply(power -> outcomeOf(error)));
    }

    /** Reads the power state after a refused command; if that read fails too, the last state read stays. */
    private CompletableFuture<PowerState> readBack() {
        return status().handle((power, error) -> lastRead);
    }

    private CompletableFuture<FenceOutcome> pollCycle(boolean sawOff, long until) {
        return status().thenCompose(power -> {
            boolean off = sawOff || power == PowerState.OFF;
            if (off && power == PowerState.ON) {
                return CompletableFuture.completedFuture(FenceOutcome.succeeded(PowerState.ON, "BMC "
                        + settings.bmc() + " power-cycled the host: OFF then ON observed"));
            }
            if (expired(until)) {
                return CompletableFuture.completedFuture(FenceOutcome.failed(power, "BMC " + settings.bmc()
                        + " accepted a power cycle but " + (off ? "the host did not come back ON"
                                : "no OFF was observed, so this is not a confirmed fence; use method=onoff")
                        + " within " + settings.powerTimeout().toMillis() + " ms"));
            }
            return client.delay(settings.pollInterval()).thenCompose(v -> pollCycle(off, until));
        });
    }

    private CompletableFuture<FenceOutcome> waitFor(PowerState wanted, Duration limit) {
        long until = System.nanoTime() + limit.toNanos();
        context.progress("waiting for BMC " + settings.bmc() + " to report power " + wanted);
        return client.delay(min(settings.powerWait(), remaining())).thenCompose(v -> poll(wanted, until, limit));
    }

    private CompletableFuture<FenceOutcome> poll(PowerState wanted, long until, Duration limit) {
        return status().thenCompose(power -> {
            if (power == wanted) {
                return CompletableFuture.completedFuture(FenceOutcome.succeeded(power, "BMC " + settings.bmc()
                        + " reports power " + power + " (confirmed)"));
            }
            if (expired(until)) {
                boolean budgetOver = deadline - System.nanoTime() <= 0;
                String detail = "BMC " + settings.bmc() + " still reports power " + power + " after "
                        + (budgetOver ? "the action's deadline" : limit.toMillis() + " ms (power_timeout)");
                return CompletableFuture.completedFuture(budgetOver ? FenceOutcome.of(FenceStatus.TIMED_OUT, power,
                        detail) : FenceOutcome.failed(power, detail));
            }
            return client.delay(min(settings.pollInterval(), remaining())).thenCompose(v -> poll(wanted, until,
                    limit));
        });
    }

    private boolean expired(long until) {
        long now = System.nanoTime();
        return until - now <= 0 || deadline - now <= 0 || cancelled;
    }

    private CompletableFuture<PowerState> status() {
        return session.chassisStatus(remaining()).thenApply(status -> {
            lastRead = status.powerOn() ? PowerState.ON : PowerState.OFF;
            return lastRead;
        });
    }

    private CompletableFuture<Void> control(ChassisControl command) {
        context.progress("sending " + command + " to BMC " + settings.bmc());
        controls.incrementAndGet();
        return session.chassisControl(command, remaining());
    }

    private FenceOutcome outcomeOf(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        // the outcome's status says how the action ended: the detail says why, with no status word of its own
        if (cause instanceof IpmiException ipmi) {
            FenceStatus status = ipmi.kind() == IpmiException.Kind.TIMEOUT ? FenceStatus.TIMED_OUT : FenceStatus.FAILED;
            return FenceOutcome.of(status, lastRead, ipmi.getMessage()).withCause(ipmi);
        }
        return FenceOutcome.failed(lastRead, "BMC " + settings.bmc() + ": unexpected error " + cause)
                .withCause(cause);
    }

    /** Keeps the session for reuse or closes it, waiting for Close Session at most until the deadline. */
    private CompletableFuture<FenceOutcome> release(FenceOutcome outcome) {
        CompletableFuture<IpmiSession> pending = opening;
        if (pending != null && !pending.isDone()) {
            pending.cancel(false);
        }
        IpmiSession open = session;
        if (open == null) {
            return CompletableFuture.completedFuture(outcome);
        }
        boolean reusable = outcome.status() == FenceStatus.SUCCEEDED || outcome.status() == FenceStatus.FAILED
                && outcome.cause().isEmpty();
        if (reusable && !cancelled && agent.keep(open)) {
            return CompletableFuture.completedFuture(outcome);
        }
        CompletableFuture<Void> limit = client.delay(remaining());
        return open.close().applyToEither(limit, v -> outcome).whenComplete((done, error) -> limit.cancel(false));
    }

    private FenceOutcome finish(FenceOutcome outcome) {
        int datagrams = packets.get();
        LOG.debug("BMC {}: {} sent {} datagrams (session setup, requests and resends)", settings.bmc(),
                request.action(), datagrams);
        int tries = datagrams == 0 ? 0 : Math.max(1, controls.get());
        return outcome.withAttempts(tries).withElapsed(context.elapsed());
    }

    private Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String describeDevice(byte[] id) {
        if (id.length < 5) {
            return "short answer " + HexFormat.of().formatHex(id);
        }
        return String.format("device id 0x%02x, revision %d, firmware %d.%02x, IPMI %d.%d", id[0] & 0xFF,
                id[1] & 0x0F, id[2] & 0x7F, id[3] & 0xFF, id[4] & 0x0F, (id[4] >> 4) & 0x0F);
    }
}
