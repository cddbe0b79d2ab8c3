package dev.remedy.fence.kube.testing;

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
 * The bare-metal operator's side of the reboot interface, for one BareMetalHost: each
 * {@link #step()} reads the host as it is on the server, decides with {@link RebootRequests#decide} (remedy-core's
 * model of the operator's rules), and writes back what it decided in the rules' order: the requests it removes, then
 * {@code status.pendingRebootSince}, then the power ({@code status.poweredOn}, and {@code status.lastPoweredOn} when
 * it powers on). The host's hardware switches at once. Detached and paused hosts are left alone, as the operator
 * does. The operator's clock is its own fake clock, one second further at every write, so that times on the objects
 * are ordered.
 *
 * <p>Drive it step by step from a test, or {@link #start()} a thread that steps every few milliseconds (for the
 * conformance kit, whose agents poll on the system clock); {@link #close()} stops it. The agent tests and the
 * machine-remediation tests (with a kubelet added) share it.
 */
public final class FakeBareMetalOperator implements AutoCloseable {

    private static final Map<String, ProvisioningState> STATES = Map.of(
            "available", ProvisioningState.AVAILABLE, "inspecting", ProvisioningState.INSPECTING,
            "provisioning", ProvisioningState.PROVISIONING, "provisioned", ProvisioningState.PROVISIONED,
            "externally provisioned", ProvisioningState.EXTERNALLY_PROVISIONED,
            "deprovisioning", ProvisioningState.DEPROVISIONING, "deleting", ProvisioningState.DELETING);

    private final KubernetesClient client;
    private final String namespace;
    private final String host;
    private final FakeTimeSource clock = new FakeTimeSource();
    private final RecordingTarget target = new RecordingTarget(this::power, this::set);
    private final List<String> hardware = Collections.synchronizedList(new ArrayList<>());
    private volatile Stepper stepper;

    /** The operator of BareMetalHost {@code namespace/host}. */
    public FakeBareMetalOperator(KubernetesClient client, String namespace, String host) {
        this.client = client;
        this.namespace = namespace;
        this.host = host;
    }

    /** Reconciles the host once; returns the decision, or empty when the host is detached, paused or gone. */
    public synchronized Optional<RebootDecision> step() {
        GenericKubernetesResource resource = BareMetalHosts.read(client, namespace, host);
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
            BareMetalHosts.hosts(client, namespace).withName(host).patch(PatchContext.of(PatchType.JSON),
                    json(decision.removeAnnotations()));
        }
        if (!decision.pendingRebootSince().equals(pending)) {
            BareMetalHosts.setStatus(client, namespace, host, "pendingRebootSince",
                    decision.pendingRebootSince().map(Instant::toString).orElse(null));
        }
        if (decision.powerOn() != poweredOn) {
            if (decision.powerOn()) {
                hardware.add("on");
                BareMetalHosts.setStatus(client, namespace, host, "lastPoweredOn", now().toString());
            } else {
                hardware.add("off " + decision.mode().name().toLowerCase(Locale.ROOT));
            }
            BareMetalHosts.setStatus(client, namespace, host, "poweredOn", decision.powerOn());
            target.record(decision.powerOn() ? PowerState.ON : PowerState.OFF);
        }
        return Optional.of(decision);
    }

    /** Steps {@code times} times. */
    public void steps(int times) {
        for (int i = 0; i < times; i++) {
            step();
        }
    }

    /** The power commands the host's hardware received, in order: {@code off hard}, {@code off soft}, {@code on}. */
    public List<String> hardware() {
        synchronized (hardware) {
            return List.copyOf(hardware);
        }
    }

    /** The operator's clock. */
    public Instant clock() {
        return clock.instant();
    }

    /** Starts a thread that steps every 5 ms until {@link #close()}. */
    public void start() {
        stepper = Stepper.start("fake-bare-metal-operator", this::step);
    }

    /** Stops the thread, if started, and fails if a step failed on it. */
    @Override
    public void close() throws InterruptedException {
        if (stepper != null) {
            stepper.close();
        }
    }

    /**
     * The host as the conformance kit sees it: its power is {@code status.poweredOn}, its history the operator's
     * power changes. Setting ON brings the host online and powered with no reboot request; setting OFF leaves it as
     * remedy's own earlier OFF would (remedy's keyed request on it, powered off): the one way a host whose owner
     * wants it online stays off, since the operator powers such a host on otherwise.
     */
    public PowerTarget target() {
        return target;
    }

    private PowerState power() {
        Object on = BareMetalHosts.read(client, namespace, host).get("status", "poweredOn");
        return on instanceof Boolean b ? (b ? PowerState.ON : PowerState.OFF) : PowerState.UNKNOWN;
    }

    private synchronized void set(PowerState state) {
        Map<String, String> annotations = BareMetalHosts.annotations(client, namespace, host);
        String remedy = BareMetalHost.REMEDY_KEY_PREFIX + BareMetalHosts.read(client, namespace, host).getMetadata().getUid();
        if (state == PowerState.ON) {
            annotations.keySet().stream().filter(a -> a.startsWith(RebootRequests.ANNOTATION))
                    .forEach(a -> BareMetalHosts.annotate(client, namespace, host, a, null));
            BareMetalHosts.setSpec(client, namespace, host, "online", true);
            BareMetalHosts.setStatus(client, namespace, host, "pendingRebootSince", null);
            BareMetalHosts.setStatus(client, namespace, host, "lastPoweredOn", now().toString());
            BareMetalHosts.setStatus(client, namespace, host, "poweredOn", true);
        } else {
            BareMetalHosts.annotate(client, namespace, host, remedy, BareMetalHost.HARD);
            BareMetalHosts.setStatus(client, namespace, host, "pendingRebootSince", now().toString());
            BareMetalHosts.setStatus(client, namespace, host, "poweredOn", false);
        }
        target.record(state);
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
