package dev.remedy.fence.kube.operator;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.policy.StormGate;
import dev.remedy.core.storm.QuorumGuard;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.StormListener;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.config.ClusterConfiguration;
import dev.remedy.fence.kube.config.KubeSecretResolver;
import dev.remedy.fence.kube.events.EventRecorder;
import dev.remedy.fence.kube.events.FenceEventReporter;
import dev.remedy.fence.kube.events.StormEventReporter;
import dev.remedy.fence.kube.external.KubeExternalRemediations;
import dev.remedy.fence.kube.ha.LeaseGuard;
import dev.remedy.fence.kube.ha.NodeRemediationLease;
import dev.remedy.fence.kube.ha.ShardLeadership;
import dev.remedy.fence.kube.ha.TermListener;
import dev.remedy.fence.kube.machine.EscalateRemediator;
import dev.remedy.fence.kube.machine.MachineRemediationDriver;
import dev.remedy.fence.kube.machine.NodeFenceEscalation;
import dev.remedy.fence.kube.nodeagent.PeerCertificates;
import dev.remedy.fence.kube.metrics.RemedyMetrics;
import dev.remedy.fence.kube.operator.internal.Term;
import dev.remedy.fence.kube.remediation.RemediationController;
import dev.remedy.fence.kube.remediation.RemediationPlans;
import dev.remedy.fence.kube.remediation.StrategyRemediator;
import dev.remedy.fence.kube.store.AdminAnnotations;
import dev.remedy.fence.kube.store.AdminTarget;
import dev.remedy.fence.kube.store.KubeFenceStateStore;
import dev.remedy.fence.kube.watch.NodeWatcher;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * remedy as a Kubernetes operator, on the host's {@link KubernetesClient}: configuration from ConfigMaps and
 * Secrets ({@link ClusterConfiguration}), one active engine per shard held by a Lease ({@link ShardLeadership}),
 * fence records in NodeFence resources ({@link KubeFenceStateStore}), nodes changed through
 * {@link KubeClusterOperations}, the leader's policy controller fed by a Node informer ({@link NodeWatcher}) and
 * admitting through storm protection and the medik8s node Lease ({@link NodeRemediationLease}), admin commands as
 * NodeFence annotations ({@link AdminAnnotations}), Events ({@link EventRecorder}) and metrics
 * ({@link RemedyMetrics}); the leader also fences the nodes of NodeFenceRemediations that NodeHealthCheck and
 * MachineHealthCheck create ({@link RemediationController}); if asked, it creates and renews the node agents'
 * mutual-TLS Secret ({@link PeerCertificates}).
 *
 * <p>Every replica watches its configuration and campaigns for the shard's Lease; only the leader runs the policy
 * controller, the Node informer and the engine. {@link #close()} hands the Lease over. Embed it in an operator of
 * your own (it takes your client and meter registry) or run it with {@code remedy operator}.
 */
public final class RemedyOperator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RemedyOperator.class);
    /** How often the leader checks the node agents' mTLS Secret ({@link Builder#nodeAgentTls}). */
    private static final Duration CERTIFICATE_CHECK = Duration.ofHours(1);

    private final Builder settings;
    private final EventRecorder events;
    private final RemedyMetrics metrics;
    private final KubeFenceStateStore store;
    private final KubeClusterOperations cluster;
    private final NodeRemediationLease nodeLeases;
    private final ClusterConfiguration configuration;
    private final ShardLeadership leadership;
    private volatile AdminAnnotations admin;
    private final ScheduledExecutorService scheduler;
    private final StormEventReporter storms;
    private volatile PlanSource plans = node -> Optional.empty();
    private volatile Term term;
    /** The policies the current term runs (none without a term). */
    private volatile List<Policy> termPolicies = List.of();
    /** When this replica's current term began: storm protection's quiet period runs from then. */
    private volatile Instant termStarted = Instant.EPOCH;
    /** The machine-remediation driver of the current term, when enabled ({@link Builder#machineRemediation}). */
    private volatile MachineRemediationDriver machineRemediation;
    // NodeFenceRemediations (health checkers' requests): their plans overlay the topology; the leader's controller
    private final RemediationPlans remediationPlans = new RemediationPlans();
    private volatile RemediationController remediations;
    /** The leader's hourly check of the node agents' mTLS Secret, when enabled ({@link Builder#nodeAgentTls}). */
    private volatile ScheduledFuture<?> certificates;
    private volatile PeerCertificates.Action lastCertificates;

    private RemedyOperator(Builder b) {
        this.settings = b;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "remedy-operator");
            thread.setDaemon(true);
            return thread;
        });
        this.events = EventRecorder.builder(b.client, b.identity).build();
        this.metrics = new RemedyMetrics(b.meters);
        this.storms = new StormEventReporter(events, Optional.empty());
        this.store = new KubeFenceStateStore(b.client);
        this.cluster = KubeClusterOperations.builder(b.client).backupNamespace(b.namespace).build();
        this.nodeLeases = NodeRemediationLease.builder(b.client, "remedy-" + b.shard).time(b.time)
                .onlyWhile(this::leading).build(); // called once built, when the leadership exists
        this.configuration = ClusterConfiguration.builder(b.client, b.namespace, b.agents, this::configured)
                .policies(b.policiesConfigMap, ClusterConfiguration.DEFAULT_POLICIES_KEY)
                .fence(b.fenceConfigMap, ClusterConfiguration.DEFAULT_FENCE_KEY).events(events).resync(b.resync)
                .build();
        this.leadership = ShardLeadership.builder(b.client).shard(b.shard).namespace(b.namespace)
                .identity(b.identity).leaseDuration(b.leaseDuration).renewDeadline(b.renewDeadline)
                .retryPeriod(b.retryPeriod).time(b.time).engineFactory(this::engine)
                .termListener(new TermListener() {
                    @Override
                    public void started(FenceEngine started, LeaseGuard guard) {
                        termStarted = settings.time.instant();
                        // only the leader takes admin commands: a standby would remove the annotation and refuse
                        admin = new AdminAnnotations(settings.client, AdminTarget.of(started), events);
                        admin.start(settings.resync);
                        restartTerm();
                        startMachineRemediation();
                        remediations = startRemediations(started);
                        startCertificates();
                    }

                    @Override
                    public void ended(FenceEngine ended) {
                        stopCertificates();
                        stopMachineRemediation();
                        Optional.ofNullable(remediations).ifPresent(RemediationController::close);
                        remediations = null;
                        stopTerm();
                        AdminAnnotations stopping = admin;
                        admin = null;
                        if (stopping != null) {
                            stopping.close();
                        }
                    }
                }).build();
    }

    /** A builder on the host's {@code client}. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** Starts watching the configuration, campaigning for the shard's Lease and applying admin commands. */
    public void start() {
        metrics.trackNodes(() -> Optional.ofNullable(term).map(Term::tracked).orElse(0));
        configuration.start();
        leadership.start();
        LOG.info("remedy operator {} started: shard {}, namespace {}, Lease {}", settings.identity, settings.shard,
                settings.namespace, leadership.lease());
    }

    /** Whether this replica is alive: its scheduler runs. */
    public boolean live() {
        return !scheduler.isShutdown();
    }

    /**
     * Whether this replica is ready: its configuration is read, and, if it leads, its Node informer has listed the
     * nodes. A standby with a configuration is ready to take over.
     */
    public boolean ready() {
        Term current = term;
        return configuration.current().isPresent() && (!leadership.isLeading() || current != null && current.synced());
    }

    /** Whether this replica leads its shard now. */
    public boolean leading() {
        return leadership.isLeading();
    }

    /** The engine of the current term, while this replica leads. */
    public Optional<FenceEngine> engine() {
        return leadership.engine();
    }

    /** The meter registry the metrics are in. */
    public MeterRegistry meters() {
        return settings.meters;
    }

    private FenceEngine engine(LeaseGuard guard) {
        FenceEngine.Builder builder = guard.fence(FenceEngine.builder(), store, cluster)
                .agents(settings.agents)
                .plans(remediationPlans.over(node -> plans.plan(node)))
                .releaseStrategies(remediationPlans::release)
                .settings(settings.flow)
                .time(settings.time)
                .listener(new FenceEventReporter(events, true))
                .listener(metrics)
                .listener(nodeLeases);
        return builder.build();
    }

    /** The leader's controller of NodeFenceRemediations, on the term's engine (see {@link RemediationController}). */
    private StrategyRemediator strategy() {
        return settings.strategy != null ? settings.strategy : new NodeFenceEscalation(EscalateRemediator
                .builder(settings.client).machineVersion(settings.machineVersion).time(settings.time).build());
    }

    private RemediationController startRemediations(FenceEngine engine) {
        RemediationController controller = RemediationController.builder(settings.client, engine, settings.agents,
                remediationPlans).cluster(cluster).topologies(node -> plans.plan(node))
                .storm(settings.remediationStorm, storms::onSignal, termStarted).strategy(strategy())
                .time(settings.time).periods(settings.resync, settings.tick).component(settings.identity).build();
        controller.start();
        return controller;
    }

    private void configured(ClusterConfiguration.Configuration applied) {
        KubeSecretResolver secrets = new KubeSecretResolver(settings.client, settings.namespace);
        plans = applied.fence().planSource(this::labelsOf, secrets);
        // the plans are read live; only new policies restart the controller (and storm protection's windows)
        if (!applied.policies().policies().equals(termPolicies)) {
            scheduler.execute(this::restartTermIfPoliciesChanged);
        }
    }

    /**
     * Restarts the term unless it already runs the current policies. Decided under the term's lock: a configuration
     * read while a term was starting (its policies not yet noted) must not start a second term, whose new policy
     * controller would count the running remediations as started again.
     */
    private synchronized void restartTermIfPoliciesChanged() {
        Optional<ClusterConfiguration.Configuration> config = configuration.current();
        if (term != null && config.isPresent() && config.get().policies().policies().equals(termPolicies)) {
            return;
        }
        restartTerm();
    }

    private Map<String, String> labelsOf(String node) {
        Node object = settings.client.nodes().withName(node).get();
        return object == null || object.getMetadata().getLabels() == null ? Map.of()
                : object.getMetadata().getLabels();
    }

    private synchronized void restartTerm() {
        stopTerm();
        FenceEngine current = leadership.engine().orElse(null);
        Optional<ClusterConfiguration.Configuration> config = configuration.current();
        if (current == null || config.isEmpty()) {
            return;
        }
        StormListener signals = signal -> {
            metrics.onSignal(signal);
            storms.onSignal(signal);
        };
        AdmissionGate gate = new StormGate(new SplittableRandom(), QuorumGuard.oneAtATime(), signals,
                termStarted).and(nodeLeases);
        Consumer<PolicyDecision> decisions = metrics.andThen(storms);
        termPolicies = config.get().policies().policies();
        term = Term.start(current, config.get().policies(), gate, nodeLeases, externalRemediations(), decisions,
                settings.selector,
                controller -> NodeWatcher.builder(settings.client, controller).time(settings.time)
                        .resync(settings.resync), scheduler, settings.tick);
    }

    /** External remedies: templates instantiated and remedy Jobs run in the operator's namespace. */
    private KubeExternalRemediations externalRemediations() {
        return KubeExternalRemediations.builder(settings.client).namespace(settings.namespace).events(events)
                .time(settings.time).machineApiVersion("cluster.x-k8s.io/" + settings.machineVersion).build();
    }

    private synchronized void stopTerm() {
        Term current = term;
        term = null;
        termPolicies = List.of();
        if (current != null) {
            current.close();
        }
    }

    // Machine remediation by annotation (opt-in): runs on the leader only, for the term's length.
    private synchronized void startMachineRemediation() {
        if (settings.machineRemediation && machineRemediation == null) {
            machineRemediation = MachineRemediationDriver.builder(settings.client)
                    .machineVersion(settings.machineVersion).backupNamespace(settings.namespace)
                    .resync(settings.resync).build();
            machineRemediation.start();
        }
    }

    private synchronized void stopMachineRemediation() {
        MachineRemediationDriver current = machineRemediation;
        machineRemediation = null;
        if (current != null) {
            current.close();
        }
    }

    // The node agents' mTLS Secret (opt-in): checked by the leader at the start of its term, then every hour.
    private void startCertificates() {
        if (settings.nodeAgentTls) {
            PeerCertificates secrets = new PeerCertificates(settings.client, settings.namespace, settings.time);
            certificates = scheduler.scheduleWithFixedDelay(() -> ensureCertificates(secrets), 0,
                    CERTIFICATE_CHECK.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private void ensureCertificates(PeerCertificates secrets) {
        try {
            PeerCertificates.Outcome outcome = secrets.ensure();
            if (outcome.action() != lastCertificates && outcome.action() != PeerCertificates.Action.CURRENT) {
                LOG.info("node agents' TLS: {}", outcome.detail());
            } else {
                LOG.debug("node agents' TLS: {}", outcome.detail());
            }
            lastCertificates = outcome.action();
        } catch (KubernetesClientException e) {
            LOG.warn("node agents' TLS: the Secrets {}/{} and {} cannot be checked (HTTP {}: {}); again in {}",
                    settings.namespace, NodeAgentContract.TLS_SECRET,
                    PeerCertificates.CA_SECRET, e.getCode(), e.getMessage(), CERTIFICATE_CHECK);
        }
    }

    private void stopCertificates() {
        ScheduledFuture<?> current = certificates;
        certificates = null;
        if (current != null) {
            current.cancel(false);
        }
    }

    /** Stops: admin commands, the leader's term, the Lease (handed over), configuration and Events. */
    @Override
    public void close() {
        leadership.close();
        stopMachineRemediation();
        Optional.ofNullable(remediations).ifPresent(RemediationController::close);
        stopTerm();
        configuration.close();
        events.close();
        scheduler.shutdownNow();
    }

    /** Builds a {@link RemedyOperator}. */
    public static final class Builder {
        private final KubernetesClient client;
        private String namespace = "remedy";
        private String identity = "remedy-" + ProcessHandle.current().pid();
        private String shard = "default";
        private Map<String, String> selector = Map.of();
        private String policiesConfigMap = ClusterConfiguration.DEFAULT_POLICIES;
        private String fenceConfigMap = ClusterConfiguration.DEFAULT_FENCE;
        private FenceAgentRegistry agents;
        private MeterRegistry meters = new SimpleMeterRegistry();
        private TimeSource time = TimeSource.system();
        private FlowSettings flow = FlowSettings.ofDefaults();
        private Duration leaseDuration = ShardLeadership.DEFAULT_LEASE_DURATION;
        private Duration renewDeadline = ShardLeadership.DEFAULT_RENEW_DEADLINE;
        private Duration retryPeriod = ShardLeadership.DEFAULT_RETRY_PERIOD;
        private Duration resync = NodeWatcher.DEFAULT_RESYNC;
        private Duration tick = Duration.ofSeconds(1);
        private boolean machineRemediation;
        private String machineVersion = "v1beta1";
        private StormSettings remediationStorm = StormSettings.ofDefaults();
        private StrategyRemediator strategy;
        private boolean nodeAgentTls;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * The operator's namespace: its Lease, ConfigMaps, Secrets, node backups and remedy Jobs, and the remediation
         * templates a policy names without a namespace ({@code remedy}).
         */
        public Builder namespace(String value) {
            namespace = Objects.requireNonNull(value, "namespace");
            return this;
        }

        /** This replica's identity, the Lease holder while it leads (the pod's name). */
        public Builder identity(String value) {
            identity = Objects.requireNonNull(value, "identity");
            return this;
        }

        /** The shard: its name and the labels of its nodes (all nodes when empty). */
        public Builder shard(String name, Map<String, String> nodeSelector) {
            shard = Objects.requireNonNull(name, "shard");
            selector = Map.copyOf(nodeSelector);
            return this;
        }

        /** The names of the policies and fence configuration ConfigMaps. */
        public Builder configMaps(String policies, String fence) {
            policiesConfigMap = Objects.requireNonNull(policies, "policies");
            fenceConfigMap = Objects.requireNonNull(fence, "fence");
            return this;
        }

        /** The fence agents (required; {@link FenceAgentRegistry#load()} finds those on the class path). */
        public Builder agents(FenceAgentRegistry value) {
            agents = Objects.requireNonNull(value, "agents");
            return this;
        }

        /** Where the metrics go (the host's registry; a simple one by default). */
        public Builder meters(MeterRegistry value) {
            meters = Objects.requireNonNull(value, "meters");
            return this;
        }

        /** The time source (the system's by default). */
        public Builder time(TimeSource value) {
            time = Objects.requireNonNull(value, "time");
            return this;
        }

        /** The fence flow's settings. */
        public Builder flow(FlowSettings value) {
            flow = Objects.requireNonNull(value, "flow");
            return this;
        }

        /** The shard Lease's timings (client-go's 15 s, 10 s and 2 s by default). */
        public Builder lease(Duration duration, Duration renewDeadlineValue, Duration retry) {
            leaseDuration = duration;
            renewDeadline = renewDeadlineValue;
            retryPeriod = retry;
            return this;
        }

        /** How often informers resync from their caches, and how often the engine ticks. */
        public Builder periods(Duration resyncValue, Duration tickValue) {
            resync = Objects.requireNonNull(resyncValue, "resync");
            tick = Objects.requireNonNull(tickValue, "tick");
            return this;
        }

        /**
         * Whether the leader runs {@link MachineRemediationDriver} (metal3's machine remediation by annotation) on
         * Cluster API Machines of {@code version} ({@code v1beta1} or {@code v1beta2}); off by default. The version
         * is also the one external remedies and the escalate strategy read Machines with ({@code v1beta1} by
         * default).
         */
        public Builder machineRemediation(boolean enabled, String version) {
            MachineRemediationDriver.builder(client).machineVersion(version);
            machineRemediation = enabled;
            machineVersion = version;
            return this;
        }

        /**
         * Storm protection for NodeFenceRemediations, over every Node ({@link StormSettings#ofDefaults()}, quiet period
         * from the start of the leader's term): health checkers' requests are admitted by these settings, not by a
         * policy's.
         */
        public Builder remediationStorm(StormSettings value) {
            remediationStorm = Objects.requireNonNull(value, "remediationStorm");
            return this;
        }

        /**
         * Who runs NodeFenceRemediations with {@code spec.strategy}: by default {@link NodeFenceEscalation}, the
         * {@code escalate} strategy on the Machine's BareMetalHost (Machines of the version
         * {@link #machineRemediation} names); {@link StrategyRemediator#NOT_SUPPORTED} refuses them.
         */
        public Builder strategy(StrategyRemediator value) {
            strategy = Objects.requireNonNull(value, "strategy");
            return this;
        }

        /**
         * Whether the leader creates the node agents' mutual-TLS Secret in the operator's namespace and renews its
         * certificate ({@link PeerCertificates}, checked at the start of each term and every hour); off by default.
         * A Secret remedy did not create (cert-manager's, an admin's) is left to its owner.
         */
        public Builder nodeAgentTls(boolean enabled) {
            nodeAgentTls = enabled;
            return this;
        }

        /** The operator, not started. */
        public RemedyOperator build() {
            if (agents == null) {
                throw new IllegalStateException("the operator needs its fence agents: call agents(FenceAgentRegistry"
                        + ".load())");
            }
            return new RemedyOperator(this);
        }
    }
}
