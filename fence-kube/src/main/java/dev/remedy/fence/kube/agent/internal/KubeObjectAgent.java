package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import java.util.List;

/**
 * What the agents of one Kubernetes object share: the connection, the object's namespace and name, the API calls an
 * action makes (its attempts), a failed call as the action's outcome (TIMED_OUT when the deadline cut it, else FAILED
 * with the call's cause), and REBOOT as OFF confirmed, then ON. Not thread-safe: the caller runs one action at a time.
 */
abstract class KubeObjectAgent implements FenceAgent {

    /** The connection to the API server. */
    final KubeConnection kube;
    /** The object's namespace. */
    final String namespace;
    /** The object's name. */
    final String name;
    /** The API calls of the running action; the subclass counts each call it makes. */
    int calls;
    private final String kind;

    /** An agent for the {@code kind} object {@code namespace/name} over {@code kube}. Does no I/O. */
    KubeObjectAgent(KubeConnection kube, String kind, String namespace, String name) {
        this.kube = kube;
        this.kind = kind;
        this.namespace = namespace;
        this.name = name;
    }

    @Override
    public final FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        calls = 0;
        context.progress(request.action().code() + " " + kind + " " + namespace + "/" + name);
        FenceOutcome outcome;
        try {
            outcome = act(request.action(), context);
        } catch (ApiCallException e) {
            outcome = (e.deadline() ? FenceOutcome.timedOut(e.getMessage())
                    : FenceOutcome.failed(PowerState.UNKNOWN, e.getMessage())).withCause(e);
        }
        return outcome.withAttempts(calls).withElapsed(context.elapsed());
    }

    /** STATUS: the object's power as read from it. Each of the actions throws ApiCallException when a call fails. */
    abstract FenceOutcome status(FenceContext context) throws InterruptedException;

    /** MONITOR: the object can be read. */
    abstract FenceOutcome monitor(FenceContext context) throws InterruptedException;

    /** OFF, confirmed. */
    abstract FenceOutcome off(FenceContext context) throws InterruptedException;

    /** ON, confirmed. */
    abstract FenceOutcome on(FenceContext context) throws InterruptedException;

    /** LIST. */
    abstract FenceOutcome list(FenceContext context) throws InterruptedException;

    /** How a failed REBOOT names its completed OFF half ({@code "stopped"}, {@code "powered off"}). */
    abstract String offDone();

    /** How a failed REBOOT names its missing ON half ({@code "started again"}, {@code "on again"}). */
    abstract String onAgain();

    @Override
    public void close() {
        kube.close();
    }

    private FenceOutcome act(FenceAction action, FenceContext context) throws InterruptedException {
        return switch (action) {
            case STATUS -> status(context);
            case MONITOR -> monitor(context);
            case OFF -> off(context);
            case ON -> on(context);
            case REBOOT -> reboot(context);
            case LIST -> list(context);
        };
    }

    /** REBOOT: OFF, and ON once OFF succeeded; a failed half is the outcome, naming what was done. */
    private FenceOutcome reboot(FenceContext context) throws InterruptedException {
        FenceOutcome off = off(context);
        if (!off.isSuccess()) {
            return off;
        }
        FenceOutcome on = on(context);
        if (!on.isSuccess()) {
            return new FenceOutcome(on.status(), on.power(), offDone() + " (" + off.detail() + "), but not "
                    + onAgain() + ": " + on.detail(), on.cause(), 0, on.elapsed(), List.of());
        }
        return FenceOutcome.succeeded(PowerState.ON, "rebooted: " + off.detail() + ", then " + on.detail());
    }
}
