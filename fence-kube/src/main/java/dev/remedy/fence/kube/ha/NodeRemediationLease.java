package dev.remedy.fence.kube.ha;

import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.storm.PoolView;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The medik8s node remediation Lease: {@code coordination.k8s.io/v1} Lease {@code node-<node>} in namespace
 * {@code medik8s-leases}, which NodeHealthCheck and the other medik8s remediators hold while they remediate a node
 * (as medik8s/common {@code pkg/lease} writes it: holder identity, {@code leaseDurationSeconds}, acquire and renew
 * times in microseconds, transitions counted on take-over; invalidated by deleting it).
 *
 * <p>As an {@link AdmissionGate}, it holds a start back while another holder's Lease on the node has not expired,
 * naming the holder; a Lease it cannot read holds back too (remedy does not start on a node another remediator may
 * be working on). The operator calls {@link #acquire} right before it starts a flow (and may call it again to renew
 * a long flow's Lease), and {@link #release} when the flow is settled; as a {@link FenceEventListener} it releases
 * the Lease when the flow reaches {@link Stage#FINISHED} and renews it as the flow's events come, once a third of
 * its duration has passed. A flow that gave up keeps its Lease until it lapses: the node needs a person first.
 *
 * <p>Use it when remedy decides remediations itself. When NodeHealthCheck drives remedy as a remediator, NHC holds
 * the Lease for it: do not install this gate then, or remedy would hold back from its own requester.
 *
 * <p>The holder identity is shared by the replicas of a shard ({@code remedy-<shard>} is a good choice), so that a
 * standby that takes over a flow also owns its Lease. No owner reference to the Node is set, unlike medik8s: with
 * the {@code DELETE_NODE} release strategy the Node is deleted mid-flow, and garbage collection would delete the
 * Lease with it. The namespace must exist (medik8s operators create it), unless {@link Builder#createNamespace}
 * allows creating it. Thread-safe.
 */
public final class NodeRemediationLease implements AdmissionGate, FenceEventListener {

    /** The namespace medik8s keeps node Leases in. */
    public static final String DEFAULT_NAMESPACE = "medik8s-leases";
    /** Default Lease duration: a whole flow with the default flow settings, with room to spare. */
    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofMinutes(30);

    private static final Logger LOG = LoggerFactory.getLogger(NodeRemediationLease.class);

    private final KubernetesClient client;
    private final String holder;
    private final String namespace;
    private final Duration duration;
    private final boolean createNamespace;
    private final TimeSource time;
    private final BooleanSupplier mayWrite;
    /** When this object last wrote each Lease it holds, to renew during a flow. */
    private final Map<String, Instant> renewed = new ConcurrentHashMap<>();
    private volatile boolean namespaceChecked;

    private NodeRemediationLease(Builder b) {
        this.client = b.client;
        this.holder = b.holder;
        this.namespace = b.namespace;
        this.duration = b.duration;
        this.createNamespace = b.createNamespace;
        this.time = b.time;
        this.mayWrite = b.mayWrite;
    }

    /** A builder for Leases held as {@code holderIdentity}. */
    public static Builder builder(KubernetesClient client, String holderIdentity) {
        return new Builder(client, holderIdentity);
    }

    /** The name of the Lease of {@code node}, as medik8s names it: {@code node-<node>}, lower case. */
    public static String leaseName(String node) {
        return ("node-" + node).toLowerCase(Locale.ROOT);
    }

    @Override
    public Optional<String> holdBack(String node, Policy policy, PoolView pool, Instant now) {
        Lease lease;
        try {
            lease = lease(node).get();
        } catch (KubernetesClientException e) {
            return Optional.of("cannot read Lease " + namespace + "/" + leaseName(node) + " (HTTP " + e.getCode()
                    + "): remedy does not start on a node another remediator may hold; check the API server and that"
                    + " remedy may get leases in namespace " + namespace);
        }
        return heldByOther(node, lease, now);
    }

    /**
     * Takes the node's Lease for this holder, or renews it if this holder has it: created if missing, taken over if
     * another holder's expired.
     *
     * @return empty when this holder holds it now; otherwise why not (held by another, lost a race, API failure)
     */
    public Optional<String> acquire(String node) {
        String name = namespace + "/" + leaseName(node);
        if (!mayWrite.getAsBoolean()) {
            return Optional.of("Lease " + name + " not taken: this replica does not lead its shard");
        }
        Instant now = time.instant();
        try {
            ensureNamespace();
            Lease current = lease(node).get();
            if (current == null) {
                client.leases().inNamespace(namespace).resource(newLease(node, now)).create();
            } else {
                Optional<String> held = heldByOther(node, current, now);
                if (held.isPresent()) {
                    return held;
                }
                client.leases().inNamespace(namespace).resource(renewedLease(current, now)).update();
            }
        } catch (KubernetesClientException e) {
            return Optional.of(describe(e, name));
        }
        renewed.put(node, now);
        return Optional.empty();
    }

    /**
     * Invalidates the node's Lease (deletes it, as medik8s does) if this holder holds it; another holder's is left
     * alone. Failures are logged: an unreleased Lease lapses after its duration.
     */
    public void release(String node) {
        renewed.remove(node);
        String name = namespace + "/" + leaseName(node);
        if (!mayWrite.getAsBoolean()) {
            LOG.info("Lease {} not released: this replica does not lead its shard; the leader releases it", name);
            return;
        }
        try {
            Lease current = lease(node).get();
            if (current == null) {
                return;
            }
            String held = current.getSpec() == null ? null : current.getSpec().getHolderIdentity();
            if (held != null && !held.isEmpty() && !held.equals(holder)) {
                LOG.info("Lease {} is held by {}, not by {}; left alone", name, held, holder);
                return;
            }
            lease(node).lockResourceVersion(current.getMetadata().getResourceVersion()).delete();
            LOG.info("released Lease {} of node {}", name, node);
        } catch (KubernetesClientException e) {
            LOG.warn("could not release Lease {}: {}; it lapses after {}", name, describe(e, name), duration);
        }
    }

    /** Releases the Lease when a flow finishes; renews it during a flow. Never throws. */
    @Override
    public void onEvent(FenceEvent event) {
        try {
            if (event instanceof FenceEvent.Transitioned t && t.to() == Stage.FINISHED) {
                release(event.node());
                return;
            }
            renewIfDue(event.node());
        } catch (RuntimeException e) {
            LOG.warn("node Lease bookkeeping failed for {}", event, e);
        }
    }

    /**
     * Renews the node's Lease if this holder took it and a third of its duration has passed since (a flow's events
     * and an external remedy's progress checks call it); a failure is logged and the Lease lapses at its end.
     */
    public void renewIfDue(String node) {
        Instant last = renewed.get(node);
        if (last != null && !time.instant().isBefore(last.plus(duration.dividedBy(3)))) {
            acquire(node).ifPresent(why -> LOG.warn("could not renew the Lease of node {}: {}", node, why));
        }
    }

    private Optional<String> heldByOther(String node, Lease lease, Instant now) {
        LeaseSpec spec = lease == null ? null : lease.getSpec();
        if (spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isEmpty()
                || spec.getHolderIdentity().equals(holder)) {
            return Optional.empty();
        }
        Optional<Instant> due = due(spec);
        if (due.isEmpty() || due.get().isBefore(now)) {
            return Optional.empty();
        }
        return Optional.of("node " + node + " is being remediated by '" + spec.getHolderIdentity() + "': it holds"
                + " Lease " + namespace + "/" + leaseName(node) + " until " + due.get() + "; remedy does not start on it");
    }

    /** When a Lease expires: renew time plus duration; empty (expired) when either is missing, as medik8s reads it. */
    private static Optional<Instant> due(LeaseSpec spec) {
        Integer seconds = spec.getLeaseDurationSeconds();
        return seconds == null ? Optional.empty()
                : Optional.ofNullable(spec.getRenewTime()).map(renew -> renew.toInstant().plusSeconds(seconds));
    }

    private Lease newLease(String node, Instant now) {
        return new LeaseBuilder().withNewMetadata().withName(leaseName(node)).withNamespace(namespace).endMetadata()
                .withNewSpec().withHolderIdentity(holder).withLeaseDurationSeconds(durationSeconds())
                .withAcquireTime(utc(now)).withRenewTime(utc(now)).withLeaseTransitions(0)
                .endSpec().build();
    }

    /** Renewed for this holder; a take-over (another holder, expired) sets the acquire time and counts a transition. */
    private Lease renewedLease(Lease current, Instant now) {
        LeaseSpec spec = current.getSpec() == null ? new LeaseSpec() : current.getSpec();
        boolean takeOver = !holder.equals(spec.getHolderIdentity());
        boolean expired = due(spec).map(d -> d.isBefore(now)).orElse(true);
        LeaseBuilder next = new LeaseBuilder(current).editOrNewSpec().withHolderIdentity(holder)
                .withLeaseDurationSeconds(durationSeconds()).withRenewTime(utc(now)).endSpec();
        if (takeOver || (expired && spec.getAcquireTime() == null)) {
            int transitions = spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions();
            next.editSpec().withAcquireTime(utc(now))
                    .withLeaseTransitions(takeOver ? transitions + 1 : transitions).endSpec();
        }
        return next.build();
    }

    private void ensureNamespace() {
        if (namespaceChecked || !createNamespace) {
            return;
        }
        if (client.namespaces().withName(namespace).get() == null) {
            try {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                        .endMetadata().build()).create();
                LOG.info("created namespace {} for node remediation Leases", namespace);
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
        }
        namespaceChecked = true;
    }

    private String describe(KubernetesClientException e, String name) {
        return switch (e.getCode()) {
            case HttpURLConnection.HTTP_CONFLICT -> "Lease " + name + " changed at the same moment (HTTP 409): another"
                    + " remediator may have taken it; try again at the next evaluation";
            case HttpURLConnection.HTTP_NOT_FOUND -> "namespace " + namespace + " does not exist (HTTP 404 on Lease "
                    + name + "): create it, as the medik8s operators do, or allow remedy to with createNamespace(true)";
            case HttpURLConnection.HTTP_FORBIDDEN -> "remedy may not write Lease " + name + " (HTTP 403): grant it"
                    + " get, create, update and delete on leases.coordination.k8s.io in namespace " + namespace;
            default -> "Lease " + name + " could not be written (HTTP " + e.getCode() + "): " + e.getMessage();
        };
    }

    private static ZonedDateTime utc(Instant instant) {
        return instant.atZone(ZoneOffset.UTC);
    }

    private Resource<Lease> lease(String node) {
        return client.leases().inNamespace(namespace).withName(leaseName(node));
    }

    private int durationSeconds() {
        return (int) duration.toSeconds(); // at least 1: the builder refuses less
    }

    /** Builds a {@link NodeRemediationLease}. */
    public static final class Builder {
        private final KubernetesClient client;
        private final String holder;
        private String namespace = DEFAULT_NAMESPACE;
        private Duration duration = DEFAULT_LEASE_DURATION;
        private boolean createNamespace;
        private TimeSource time = TimeSource.system();
        private BooleanSupplier mayWrite = () -> true;

        private Builder(KubernetesClient client, String holder) {
            this.client = Objects.requireNonNull(client, "client");
            if (holder == null || holder.isBlank()) {
                throw new IllegalArgumentException("holderIdentity must not be empty; use remedy-<shard>");
            }
            this.holder = holder;
        }

        /** The namespace of node Leases; default {@value #DEFAULT_NAMESPACE} (medik8s reads {@code LEASE_NAMESPACE}). */
        public Builder namespace(String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("namespace must not be empty");
            }
            this.namespace = value;
            return this;
        }

        /** The Lease duration written ({@code leaseDurationSeconds}, whole seconds, at least 1); default 30 min. */
        public Builder leaseDuration(Duration value) {
            if (value == null || value.toSeconds() < 1) {
                throw new IllegalArgumentException("leaseDuration must be at least 1 s, was " + value);
            }
            this.duration = value;
            return this;
        }

        /** Whether remedy may create the namespace when it is missing (needs RBAC to create namespaces); default no. */
        public Builder createNamespace(boolean value) {
            this.createNamespace = value;
            return this;
        }

        /** The wall clock written into Leases and compared with their expiry; default the system's. */
        public Builder time(TimeSource value) {
            this.time = Objects.requireNonNull(value, "time");
            return this;
        }

        /**
         * Writes only while {@code value} says so (acquire and release are effects): pass
         * {@code leadership::isLeading} so that only the shard's leader takes and releases node Leases. Default always.
         */
        public Builder onlyWhile(BooleanSupplier value) {
            this.mayWrite = Objects.requireNonNull(value, "onlyWhile");
            return this;
        }

        /** The Lease keeper. */
        public NodeRemediationLease build() {
            return new NodeRemediationLease(this);
        }
    }
}
