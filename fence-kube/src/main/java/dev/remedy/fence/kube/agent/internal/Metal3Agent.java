package dev.remedy.fence.kube.agent.internal;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fences one metal3 BareMetalHost through the bare-metal operator's reboot interface: OFF puts remedy's keyed
 * request {@code reboot.metal3.io/remedy-<uid>} with {@code {"mode":"hard"}} on the host and waits for
 * {@code status.poweredOn=false} (the operator then holds the host off until the request is removed); ON removes
 * that request and waits for {@code status.poweredOn=true}; STATUS reads {@code status.poweredOn}. The key comes
 * from the host's uid, so an action retried after a crash finds the request it made.
 *
 * <p>Refused: hosts annotated {@code baremetalhost.metal3.io/detached} or {@code baremetalhost.metal3.io/paused}
 * (the operator neither acts on requests nor keeps their status current; every action), and, for OFF and REBOOT,
 * hosts whose {@code spec.online} is not true (the owner keeps them off, and a powered-off reading would not prove
 * remedy's fence) or whose provisioning state is not one the operator acts on requests in. STATUS reads such a host's
 * power as it is and says that its owner keeps it off. ON removes remedy's request and fails at once, without waiting,
 * when another client's keyed request or {@code spec.online=false} keeps the host off.
 *
 * <p>ON always removes remedy's request first, also from a detached or paused host (removing it is always safe; left
 * behind, it would hold the host off for good once the operator manages it again); on such a host ON then fails,
 * saying that the request was removed and that the operator does not manage the host's power, or is refused when
 * there was no request of remedy's to remove.
 */
public final class Metal3Agent extends KubeObjectAgent {

    /** An agent for BareMetalHost {@code namespace/host} over {@code kube}. Does no I/O. */
    public Metal3Agent(KubeConnection kube, String namespace, String host) {
        super(kube, "BareMetalHost", namespace, host);
    }

    @Override
    FenceOutcome list(FenceContext context) {
        return FenceOutcome.unsupported("metal3", FenceAction.LIST);
    }

    @Override
    String offDone() {
        return "powered off";
    }

    @Override
    String onAgain() {
        return "on again";
    }

    @Override
    FenceOutcome status(FenceContext context) throws InterruptedException {
        BareMetalHost h = read(context);
        Optional<FenceOutcome> refused = unmanaged(h, FenceAction.STATUS);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (h.poweredOn().isEmpty()) {
            return FenceOutcome.failed(PowerState.UNKNOWN, "BareMetalHost " + h.ref() + " has no status.poweredOn"
                    + " (the bare-metal operator has not read its power yet): its power is unknown; try again later");
        }
        String owner = h.online().orElse(false) ? "" : " (spec.online is not true: its owner keeps it powered off)";
        String held = h.annotations().containsKey(h.remedyAnnotation()) ? "; remedy's request "
                + h.remedyAnnotation() + " is on it" : "";
        return FenceOutcome.succeeded(power(h), "BareMetalHost " + h.ref() + " reads " + h.powerText() + owner + held);
    }

    @Override
    FenceOutcome monitor(FenceContext context) throws InterruptedException {
        BareMetalHost h = read(context);
        return unmanaged(h, FenceAction.MONITOR).orElseGet(() -> FenceOutcome.succeeded(power(h),
                "BareMetalHost " + h.ref() + " is readable (" + h.powerText() + ", provisioning state '"
                        + h.provisioningState() + "')"));
    }

    @Override
    FenceOutcome off(FenceContext context) throws InterruptedException {
        BareMetalHost h = read(context);
        Optional<FenceOutcome> refused = refusal(h, FenceAction.OFF);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (h.uid().isEmpty()) {
            return FenceOutcome.failed(power(h), "BareMetalHost " + h.ref() + " has no metadata.uid to key remedy's"
                    + " reboot request with; read it from a real API server");
        }
        String key = h.remedyAnnotation();
        if (h.hasRemedyRequest()) {
            context.progress("BareMetalHost " + h.ref() + " already carries " + key + "; waiting for it to power off");
        } else {
            context.progress("adding " + key + "=" + BareMetalHost.HARD + " to BareMetalHost " + h.ref());
            calls++;
            kube.call(context, "add " + key + " to BareMetalHost " + h.ref(), client -> Patches.annotate(client,
                    BareMetalHost.RESOURCE, namespace, name, key, BareMetalHost.HARD));
        }
        AtomicReference<BareMetalHost> last = new AtomicReference<>(h);
        return PowerPoll.until(context, kube.settings().pollInterval(), "BareMetalHost " + h.ref()
                + " to read status.poweredOn=false", () -> {
                    BareMetalHost now = read(context);
                    last.set(now);
                    Optional<FenceOutcome> changed = refusal(now, FenceAction.OFF);
                    if (changed.isPresent()) {
                        return Optional.of(FenceOutcome.failed(power(now), changed.get().detail()));
                    }
                    if (!now.hasRemedyRequest()) {
                        return Optional.of(FenceOutcome.failed(power(now), "remedy's request " + key + " was removed"
                                + " from BareMetalHost " + now.ref() + " by another client (provisioning state '"
                                + now.provisioningState() + "'): the host is not held off; fence it again"));
                    }
                    if (now.poweredOn().equals(Optional.of(false))) {
                        return Optional.of(FenceOutcome.succeeded(PowerState.OFF, "BareMetalHost " + now.ref()
                                + " reads status.poweredOn=false and is held off by " + key));
                    }
                    return Optional.empty();
                }, () -> last.get().powerText());
    }

    @Override
    FenceOutcome on(FenceContext context) throws InterruptedException {
        BareMetalHost h = read(context);
        String key = h.remedyAnnotation();
        boolean withdrawn = h.annotations().containsKey(key);
        if (withdrawn) {
            // always first, even on a host the operator does not manage now: once it manages the host again, a
            // request left behind would hold it off for good
            context.progress("removing " + key + " from BareMetalHost " + h.ref());
            calls++;
            kube.call(context, "remove " + key + " from BareMetalHost " + h.ref(), client -> {
                Patches.removeAnnotation(client, BareMetalHost.RESOURCE, namespace, name, key);
                return key;
            });
        }
        Optional<FenceOutcome> refused = unmanaged(h, FenceAction.ON);
        if (refused.isPresent()) {
            if (!withdrawn) {
                return refused.get();
            }
            return FenceOutcome.failed(power(h), "remedy's request " + key + " was removed from BareMetalHost "
                    + h.ref() + ", but the host is not managed, so ON cannot be confirmed: " + refused.get().detail());
        }
        if (!withdrawn) {
            context.progress("BareMetalHost " + h.ref() + " carries no request of remedy's; waiting for it to power on");
        }
        Optional<FenceOutcome> kept = keptOff(h);
        if (kept.isPresent()) {
            return kept.get();
        }
        AtomicReference<BareMetalHost> last = new AtomicReference<>(h);
        return PowerPoll.until(context, kube.settings().pollInterval(), "BareMetalHost " + h.ref()
                + " to read status.poweredOn=true", () -> {
                    BareMetalHost now = read(context);
                    last.set(now);
                    Optional<FenceOutcome> stop = unmanaged(now, FenceAction.ON)
                            .map(o -> FenceOutcome.failed(power(now), o.detail())).or(() -> keptOff(now));
                    if (stop.isPresent()) {
                        return stop;
                    }
                    if (now.poweredOn().equals(Optional.of(true))) {
                        return Optional.of(FenceOutcome.succeeded(PowerState.ON, "BareMetalHost " + now.ref()
                                + " reads status.poweredOn=true"));
                    }
                    return Optional.empty();
                }, () -> last.get().powerText());
    }

    /** Why the host will stay off after remedy's request is gone: another client's request, or its owner. */
    private Optional<FenceOutcome> keptOff(BareMetalHost h) {
        List<String> others = h.otherKeyedRequests();
        if (!others.isEmpty()) {
            return Optional.of(FenceOutcome.failed(power(h), "remedy's request is off BareMetalHost " + h.ref()
                    + ", but the keyed reboot requests " + others + " of other clients hold it powered off: ON cannot"
                    + " succeed until their clients remove them"));
        }
        if (!h.online().orElse(false)) {
            return Optional.of(FenceOutcome.failed(power(h), "remedy's request is off BareMetalHost " + h.ref()
                    + ", but its spec.online is not true, so the bare-metal operator keeps it off: set spec.online="
                    + "true to power it on"));
        }
        return Optional.empty();
    }

    /** Every refusal of OFF and REBOOT: an unmanaged host, an owner who keeps it off, a state without requests. */
    private static Optional<FenceOutcome> refusal(BareMetalHost h, FenceAction action) {
        Optional<FenceOutcome> unmanaged = unmanaged(h, action);
        if (unmanaged.isPresent()) {
            return unmanaged;
        }
        if (!h.online().orElse(false)) {
            return Optional.of(FenceOutcome.refused("BareMetalHost " + h.ref() + " has spec.online "
                    + h.online().map(String::valueOf).orElse("unset") + ": its owner wants it offline, and remedy cannot"
                    + " confirm a fence it did not cause (status.poweredOn=false would read the same without remedy's"
                    + " request); set spec.online=true, or fence the host another way (its BMC)"));
        }
        if (h.state().filter(s -> s.acceptsRebootRequests()).isEmpty()) {
            return Optional.of(FenceOutcome.refused("BareMetalHost " + h.ref() + " is in provisioning state '"
                    + h.provisioningState() + "': the bare-metal operator acts on reboot requests of provisioned and"
                    + " externally provisioned hosts only; fence the host another way (its BMC)"));
        }
        return Optional.empty();
    }

    /** The refusal of a detached or paused host, whose power the bare-metal operator does not manage. */
    private static Optional<FenceOutcome> unmanaged(BareMetalHost h, FenceAction action) {
        for (String annotation : List.of(BareMetalHost.DETACHED, BareMetalHost.PAUSED)) {
            if (h.annotations().containsKey(annotation)) {
                String why = action == FenceAction.STATUS || action == FenceAction.MONITOR
                        ? "its status.poweredOn is not kept current" : "it does not act on reboot requests";
                return Optional.of(FenceOutcome.refused("BareMetalHost " + h.ref() + " is annotated " + annotation
                        + ": the bare-metal operator does not manage its power while it is, so " + why + "; remedy "
                        + "refuses " + action.code() + ". Remove the annotation, or fence the host another way (its "
                        + "BMC)"));
            }
        }
        return Optional.empty();
    }

    private BareMetalHost read(FenceContext context) throws InterruptedException {
        String ref = namespace + "/" + name;
        calls++;
        GenericKubernetesResource resource = kube.call(context, "read BareMetalHost " + ref, client -> client
                .genericKubernetesResources(BareMetalHost.RESOURCE).inNamespace(namespace).withName(name).get());
        if (resource == null) {
            throw new ApiCallException("BareMetalHost " + ref + " was not found: check the host and namespace"
                    + " parameters, and that metal3's BareMetalHost resource is installed", false, null);
        }
        return BareMetalHost.of(resource);
    }

    private static PowerState power(BareMetalHost h) {
        return h.poweredOn().map(on -> on ? PowerState.ON : PowerState.OFF).orElse(PowerState.UNKNOWN);
    }
}
