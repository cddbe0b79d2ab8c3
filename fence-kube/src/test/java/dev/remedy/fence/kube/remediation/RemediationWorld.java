package dev.remedy.fence.kube.remediation;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.Threshold;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.StateStoreException;
import dev.remedy.fence.kube.cluster.KubeClusterOperations;
import dev.remedy.fence.kube.store.KubeFenceStateStore;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A cluster on the CRUD mock API server for the remediation tests: the CRDs posted (remedy's, and a minimal Cluster
 * API Machine CRD with a status subresource for v1beta1 and v1beta2), Ready Nodes each with a BMC in the in-JVM IPMI
 * simulator, a real engine with the {@code ipmi} agent whose records are NodeFences and whose cluster operations are
 * remedy's Kubernetes ones, and a {@link RemediationController} over them.
 *
 * <p>Time is the system's: the agent speaks RMCP+ over UDP to the simulator with real deadlines. No test asserts a
 * duration; every wait is bounded ({@link #await}).
 */
final class RemediationWorld implements AutoCloseable {

    static final String NAMESPACE = "medik8s";
    static final String USER = "admin";
    static final String PASSWORD = "bmc-secret-1";
    static final Duration BUDGET = Duration.ofSeconds(30);

    final KubernetesClient client;
    final IpmiBmcSimulator simulator = IpmiBmcSimulator.start();
    private final Duration hold;
    private final StormSettings storm;
    RemediationPlans plans;
    FenceEngine engine;
    RemediationController controller;
    private ScheduledExecutorService ticker;
    /** Whether the engine's store saves records (false: every save fails, as with a full disk). */
    final AtomicBoolean saves = new AtomicBoolean(true);

    /** A world whose fence flows hold {@code hold} after the decision, with storm protection {@code storm}. */
    RemediationWorld(KubernetesClient client, Duration hold, StormSettings storm) {
        this.client = client;
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client);
        client.apiextensions().v1().customResourceDefinitions().resource(machineCrd()).create();
        this.hold = hold;
        this.storm = storm;
        startReplica();
    }

    /**
     * The operator replica fails over to a new one: engine, plans and controller closed, and new ones started on the
     * same API server (the new engine loads the NodeFences; the new plans are empty).
     */
    void failover() {
        ticker.shutdownNow();
        controller.close();
        engine.close();
        startReplica();
    }

    private void startReplica() {
        plans = new RemediationPlans();
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "test-engine-ticker");
            t.setDaemon(true);
            return t;
        });
        KubeClusterOperations cluster = KubeClusterOperations.builder(client).backupNamespace(NAMESPACE)
                .releaseTimeout(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).build();
        FenceAgentRegistry agents = FenceAgentRegistry.load();
        engine = FenceEngine.builder().store(new SwitchableStore(new KubeFenceStateStore(client), saves))
                .cluster(cluster).agents(agents)
                .plans(plans.over(node -> Optional.empty())).releaseStrategies(plans::release)
                .settings(FlowSettings.custom().hold(hold).restartDelay(Duration.ofSeconds(30))
                        .backoff(Duration.ofMillis(100), Duration.ofMillis(500)).build())
                .time(TimeSource.system()).threads(2).build();
        engine.start();
        controller = RemediationController.builder(client, engine, agents, plans).cluster(cluster)
                .storm(storm, StormListener.NONE, Instant.EPOCH).periods(Duration.ofSeconds(1), Duration.ofMillis(100))
                .component("remedy-test").build();
        controller.start();
        ticker.scheduleWithFixedDelay(engine::tick, 50, 50, TimeUnit.MILLISECONDS);
    }

    /** Storm protection that admits every remediation of these small clusters at once. */
    static StormSettings permissive() {
        return StormSettings.custom().minHealthy(Threshold.percent(0)).quietPeriod(Duration.ZERO)
                .noFenceRateLimit().raceDelay(Duration.ZERO, Duration.ZERO).nodeCooldown(Duration.ZERO).build();
    }

    /** A Ready Node named {@code name} with its own BMC (powered on), returned. */
    SimulatedBmc node(String name) {
        client.nodes().resource(readyNode(name)).create();
        return simulator.add(BmcSpec.builder().user(USER, PASSWORD).build());
    }

    static Node readyNode(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name)
                .endMetadata().withNewStatus().withConditions(new NodeConditionBuilder().withType("Ready")
                        .withStatus("True").withLastTransitionTime(Instant.now().toString()).build())
                .withNewNodeInfo().withBootID("boot-1").endNodeInfo().endStatus().build();
    }

    /** FenceAgentsRemediation's shared parameters of {@code bmc}, as FAR users write them (password included). */
    static Map<String, String> farParameters(SimulatedBmc bmc) {
        return Map.of("--ip", bmc.host(), "--ipport", Integer.toString(bmc.port()), "--username", USER,
                "--password", PASSWORD, "--lanplus", "", "--poll-interval", "50ms");
    }

    /** The remediation {@code namespace/name} as the API server has it, or null. */
    NodeFenceRemediation get(String name) {
        return client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).withName(name).get();
    }

    /** Condition {@code type} of remediation {@code name}, if present. */
    Optional<Condition> condition(String name, String type) {
        NodeFenceRemediation cr = get(name);
        if (cr == null || cr.getStatus() == null) {
            return Optional.empty();
        }
        return cr.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** Whether condition {@code type} of remediation {@code name} has {@code status} and {@code reason}. */
    boolean has(String name, String type, String status, String reason) {
        return condition(name, type).filter(c -> status.equals(c.getStatus()) && reason.equals(c.getReason()))
                .isPresent();
    }

    /** Whether Node {@code node} has {@code spec.unschedulable: true}. */
    boolean cordoned(String node) {
        Node object = client.nodes().withName(node).get();
        return object.getSpec() != null && Boolean.TRUE.equals(object.getSpec().getUnschedulable());
    }

    /** The core/v1 Events about remediation {@code name}. */
    List<Event> events(String name) {
        return client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null && name.equals(e.getInvolvedObject().getName())).toList();
    }

    /** The engine's record of {@code node}, if any. */
    Optional<NodeFence> record(String node) {
        return engine.record(node);
    }

    /** Whether {@code bmc} was switched off and is on again. */
    static boolean offThenOn(SimulatedBmc bmc) {
        List<PowerState> history = bmc.powerTarget().history();
        return history.contains(PowerState.OFF) && history.get(history.size() - 1) == PowerState.ON;
    }

    /** Tells the engine that {@code node} is Ready again (the kubelet after the machine booted). */
    void ready(String node) {
        engine.observe(node, new Observation.Readiness(true, Optional.of(Instant.now())));
    }

    /** Waits until {@code condition} holds, at most {@link #BUDGET}, checking every 50 ms; fails naming it. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + BUDGET.toNanos();
        for (int i = 0; i < 2_000 && System.nanoTime() < deadline; i++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("not within " + BUDGET + ": " + what);
    }

    /**
     * Waits until the controller has made at least {@code count - 1} whole passes over every remediation: each probe
     * (a remediation for a node that does not exist) is answered by the pass after the previous probe's.
     */
    void completedPasses(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            String probe = "probe-" + probes.incrementAndGet();
            NodeFenceRemediation cr = new NodeFenceRemediation();
            cr.getMetadata().setName(probe);
            cr.getMetadata().setNamespace(NAMESPACE);
            cr.getSpec().setAgent("fence_ipmilan");
            client.resources(NodeFenceRemediation.class).inNamespace(NAMESPACE).resource(cr).create();
            await("probe " + probe + " answered", () -> has(probe, "Succeeded", "False",
                    "RemediationFinishedNodeNotFound"));
        }
    }

    private final AtomicInteger probes = new AtomicInteger();

    /** A store whose saves fail while {@code saves} is false; loads and deletes go through. */
    private record SwitchableStore(FenceStateStore store, AtomicBoolean saves) implements FenceStateStore {

        @Override
        public Optional<NodeFence> load(String node) {
            return store.load(node);
        }

        @Override
        public List<NodeFence> loadAll() {
            return store.loadAll();
        }

        @Override
        public NodeFence save(NodeFence record) {
            if (!saves.get()) {
                throw new StateStoreException("the test's store refuses saves (as a full disk would)");
            }
            return store.save(record);
        }

        @Override
        public void delete(String node) {
            store.delete(node);
        }

        @Override
        public Map<String, String> lostRecords() {
            return store.lostRecords();
        }

        @Override
        public List<String> problems() {
            return store.problems();
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        controller.close();
        engine.close();
        simulator.close();
    }

    /** A minimal Machine CRD: group cluster.x-k8s.io, v1beta1 and v1beta2 served, status subresource. */
    private static CustomResourceDefinition machineCrd() {
        List<CustomResourceDefinitionVersion> versions = List.of("v1beta1", "v1beta2").stream()
                .map(version -> new CustomResourceDefinitionVersionBuilder().withName(version).withServed(true)
                        .withStorage(version.equals("v1beta2")).withNewSubresources().withNewStatus().endStatus()
                        .endSubresources().withNewSchema().withNewOpenAPIV3Schema().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema().build())
                .toList();
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName("machines.cluster.x-k8s.io")
                .endMetadata().withNewSpec().withGroup("cluster.x-k8s.io").withScope("Namespaced").withNewNames()
                .withKind("Machine").withPlural("machines").withSingular("machine").endNames()
                .withVersions(versions).endSpec().build();
    }
}
