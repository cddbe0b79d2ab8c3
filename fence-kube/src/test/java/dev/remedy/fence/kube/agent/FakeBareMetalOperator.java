package dev.remedy.fence.kube.agent;

import dev.remedy.core.rules.HostSnapshot;
import dev.remedy.core.rules.ProvisioningState;
import dev.remedy.core.rules.RebootDecision;
import dev.remedy.core.rules.RebootRequests;
import dev.remedy.fence.kube.agent.internal.BareMetalHost;
import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.PowerTarget;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The bare-metal operator's side of the reboot interface, for one BareMetalHost of the test namespace: each
 * {@link #step()} reads the host as it is on the server, decides with {@link RebootRequests#decide} (remedy-core's
 * model of the operator's rules), and writes back what it decided in the rules' order: the requests it removes, then
 * {@code status.pendingRebootSince}, then the power ({@code status.poweredOn}, and {@code status.lastPoweredOn} when
 * it powers on). The host's hardware switches at once. Detached and paused hosts are left alone, as the operator
 * does. The operator's clock is its own fake clock, one second further at every write, so that times on the objects
 * are ordered.
 *
 * <p>Drive it step by step from a test, or {@link #start()} a thread that steps every few milliseconds (for the
 * conformance kit, whose agents poll on the system clock); {@link #close()} stops it.
 */
final class FakeBareMetalOperator implements AutoCloseable {

    private static final Map<String, ProvisioningState> STATES = Map.of(
            "available", ProvisioningState.AVAILABLE, "inspecting", ProvisioningState.INSPECTING,
            "provisioning", ProvisioningState.PROVISIONING, "provisioned", ProvisioningState.PROVISIONED,
            "externally provisioned", ProvisioningState.EXTERNALLY_PROVISIONED,
            "deprovisioning", ProvisioningState.DEPROVISIONING, "deleting", ProvisioningState.DELETING);

    private final KubernetesClient client;
    private final String host;
    private final FakeTimeSource clock = new FakeTimeSource();
    private final List<PowerState> history = Collections.synchronizedList(new ArrayList<>());
    private final List<String> hardware = Collections.synchronizedList(new ArrayList<>());
    private volatile Thread thread;
    private volatile RuntimeException failure;
    private volatile boolean stopping;

    FakeBareMetalOperator(KubernetesClient client, String host) {
        this.client = client;
        this.host = host;
    }

    /** Reconciles the host once; returns the decision, or empty when the host is detached, paused or gone. */
    synchronized Optional<RebootDecision> step() {
        GenericKubernetesResource resource = KubeObjects.readHost(client, host);
        if (resource == null) {
            return Optional.empty();
        }
        Map<String, String> annotations = Optional.ofNullable(resource.getMetadata().getAnnotations()).orElse(Map.of());
        if (annotations.containsKey(BareMetalHost.DETACHED) || annotations.containsKey(BareMetalHost.PAUSED)) {
            return Optional.empty();
        }
        boolean poweredOn = Boolean.TRUE.equals(resource.get("status", "poweredOn"));
        Optional<Instant> pending = time(resource.get("status", "pendingRebootSince"));
        HostSnapshot snapshot = new HostSnapshot(annotations, Boolean.TRUE.equals(resource.get("spec", "online")),
                state(resource.get("status", "provisioning", "state")), poweredOn,
                time(resource.get("status", "lastPoweredOn")), pending);
        RebootDecision decision = RebootRequests.decide(snapshot, now());
        if (!decision.removeAnnotations().isEmpty()) {
            KubeObjects.hosts(client).withName(host).patch(PatchContext.of(PatchType.JSON),
                    json(decision.removeAnnotations()));
        }
        if (!decision.pendingRebootSince().equals(pending)) {
            KubeObjects.setStatus(client, host, "pendingRebootSince",
                    decision.pendingRebootSince().map(Instant::toString).orElse(null));
        }
        if (decision.powerOn() != poweredOn) {
            if (decision.powerOn()) {
                hardware.add("on");
                KubeObjects.setStatus(client, host, "lastPoweredOn", now().toString());
            } else {
                hardware.add("off " + decision.mode().name().toLowerCase(Locale.ROOT));
            }
            KubeObjects.setStatus(client, host, "poweredOn", decision.powerOn());
            history.add(decision.powerOn() ? PowerState.ON : PowerState.OFF);
        }
        return Optional.of(decision);
    }

    /** Steps {@code times} times. */
    void steps(int times) {
        for (int i = 0; i < times; i++) {
            step();
        }
    }

    /** The power commands the host's hardware received, in order: {@code off hard}, {@code off soft}, {@code on}. */
    List<String> hardware() {
        synchronized (hardware) {
            return List.copyOf(hardware);
        }
    }

    /** The operator's clock. */
    Instant clock() {
        return clock.instant();
    }

    /** Starts a thread that steps every 5 ms until {@link #close()}. */
    void start() {
        Thread stepper = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    step();
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    if (!stopping) {
                        failure = e;
                    }
                    return;
                }
            }
        }, "fake-bare-metal-operator");
        stepper.setDaemon(true);
        thread = stepper;
        stepper.start();
    }

    /** Stops the thread, if started, and fails if a step failed on it. */
    @Override
    public void close() throws InterruptedException {
        Thread stepper = thread;
        if (stepper != null) {
            stopping = true;
            stepper.interrupt();
            stepper.join(Duration.ofSeconds(5).toMillis());
        }
        if (failure != null) {
            throw new IllegalStateException("the fake bare-metal operator failed a step", failure);
        }
    }

    /**
     * The host as the conformance kit sees it: its power is {@code status.poweredOn}, its history the operator's
     * power changes. Setting ON brings the host online and powered with no reboot request; setting OFF leaves it as
     * remedy's own earlier OFF would (remedy's keyed request on it, powered off): the one way a host whose owner
     * wants it online stays off, since the operator powers such a host on otherwise.
     */
    PowerTarget target() {
        return new PowerTarget() {
            @Override
            public PowerState power() {
                Object on = KubeObjects.readHost(client, host).get("status", "poweredOn");
                return on instanceof Boolean b ? (b ? PowerState.ON : PowerState.OFF) : PowerState.UNKNOWN;
            }

            @Override
            public void power(PowerState state) {
                set(state);
            }

            @Override
            public List<PowerState> history() {
                synchronized (history) {
                    return List.copyOf(history);
                }
            }

            @Override
            public void clearHistory() {
                history.clear();
            }
        };
    }

    private synchronized void set(PowerState state) {
        Map<String, String> annotations = KubeObjects.annotations(client, host);
        String remedy = BareMetalHost.REMEDY_KEY_PREFIX + KubeObjects.readHost(client, host).getMetadata().getUid();
        if (state == PowerState.ON) {
            annotations.keySet().stream().filter(a -> a.startsWith(RebootRequests.ANNOTATION))
                    .forEach(a -> KubeObjects.annotate(client, host, a, null));
            KubeObjects.setSpec(client, host, "online", true);
            KubeObjects.setStatus(client, host, "pendingRebootSince", null);
            KubeObjects.setStatus(client, host, "lastPoweredOn", now().toString());
            KubeObjects.setStatus(client, host, "poweredOn", true);
        } else {
            KubeObjects.annotate(client, host, remedy, BareMetalHost.HARD);
            KubeObjects.setStatus(client, host, "pendingRebootSince", now().toString());
            KubeObjects.setStatus(client, host, "poweredOn", false);
        }
        history.add(state);
    }

    private Instant now() {
        clock.advance(Duration.ofSeconds(1));
        return clock.instant();
    }

    /**
     * A JSON patch that removes {@code annotations} (not a merge patch with null values, which the mock API server
     * stores as null values instead of removing the keys).
     */
    private static String json(List<String> annotations) {
        return annotations.stream().map(a -> "{\"op\":\"remove\",\"path\":\"/metadata/annotations/"
                + a.replace("~", "~0").replace("/", "~1") + "\"}").collect(Collectors.joining(",", "[", "]"));
    }

    private static ProvisioningState state(Object text) {
        ProvisioningState state = STATES.get(String.valueOf(text));
        if (state == null) {
            throw new IllegalStateException("the fake bare-metal operator does not know provisioning state '" + text
                    + "'; add it to FakeBareMetalOperator.STATES");
        }
        return state;
    }

    private static Optional<Instant> time(Object text) {
        return text instanceof String s ? Optional.of(Instant.parse(s)) : Optional.empty();
    }
}
