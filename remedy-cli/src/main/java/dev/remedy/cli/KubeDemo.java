package dev.remedy.cli;

import dev.remedy.core.engine.Taint;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.fence.kube.operator.RemedyOperator;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import dev.remedy.fence.kube.store.NodeFenceResource;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.PowerState;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Demo step 12: remedy as a Kubernetes operator ({@link RemedyOperator}) against fabric8's mock API server in this
 * JVM (CRUD mode, on 127.0.0.1): three Nodes, one NotReady for two minutes already; its policy and its fence
 * configuration in ConfigMaps, the BMC password in a Secret; the native {@code ipmi} agent against a simulated BMC
 * over real RMCP+. The node is fenced, released with the out-of-service taint, powered on, and recovered once it is
 * Ready again; the NodeFence and the Events tell the story.
 */
final class KubeDemo {

    private static final String NAMESPACE = "remedy";
    private static final String NODE = "worker-1";
    private static final Duration BUDGET = Duration.ofSeconds(60);
    private static final String POLICIES = """
            policies:
              - name: workers
                unhealthyConditions: [{type: Ready, status: "False", duration: 30s}]
                escalation: [{name: fence, fence: {}, timeout: 2m}]
                storm: {quietPeriod: 0s}
            """;

    private KubeDemo() {
    }

    /** Runs the step and returns whether everything ended as expected. */
    static boolean run(CliEnvironment env) throws InterruptedException {
        PrintWriter out = env.out();
        try (MockApiServer api = MockApiServer.start(); IpmiBmcSimulator simulator = IpmiBmcSimulator.start()) {
            out.println("-- 12. Kubernetes: remedy as an operator. The API server is fabric8's mock API server (CRUD "
                    + "mode) running in this JVM at " + api.url() + ", not a real cluster");
            SimulatedBmc bmc = simulator.add(IpmiDemo.spec());
            KubernetesClient client = api.client();
            setUp(client, bmc);
            out.println("   3 Nodes; " + NODE + " NotReady since 2 minutes ago (policy 'workers': Ready=False for 30s"
                    + " -> fence); its BMC is a simulated one at " + bmc.host() + ":" + bmc.port() + " (RMCP+ over UDP),"
                    + " agent ipmi, password from Secret " + NAMESPACE + "/bmc-credentials");
            AtomicReference<String> outOfService = new AtomicReference<>();
            try (Watch watch = client.nodes().withName(NODE).watch(new TaintWatcher(outOfService));
                 RemedyOperator operator = RemedyOperator.builder(client).namespace(NAMESPACE).identity("demo-replica")
                         .agents(env.registry()).flow(FlowSettings.custom().hold(Duration.ofMillis(500)).build())
                         .lease(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(200))
                         .periods(Duration.ofSeconds(1), Duration.ofMillis(100)).build()) {
                operator.start();
                return story(out, client, bmc, operator, outOfService);
            }
        }
    }

    private static boolean story(PrintWriter out, KubernetesClient client, SimulatedBmc bmc, RemedyOperator operator,
                                 AtomicReference<String> outOfService) throws InterruptedException {
        long deadline = System.nanoTime() + BUDGET.toNanos();
        Listing listing = new Listing(out, client);
        boolean expected = await(out, "the operator leads the shard", deadline, listing,
                () -> operator.leading() && operator.ready());
        out.println("   the operator leads: it holds Lease " + NAMESPACE + "/remedy-default");
        expected &= await(out, "OFF confirmed over RMCP+", deadline, listing,
                () -> bmc.powerTarget().history().contains(PowerState.OFF));
        out.println("   the BMC of " + NODE + " switched the machine OFF (read back over RMCP+)");
        expected &= await(out, "the out-of-service taint", deadline, listing, () -> outOfService.get() != null);
        out.println("   released: taint " + outOfService.get() + " on " + NODE
                + " (seen by a watch on the Node: Kubernetes may now detach its volumes and delete its pods)");
        expected &= await(out, "powered on, taint removed first", deadline, listing, () -> {
            List<PowerState> history = bmc.powerTarget().history();
            return history.contains(PowerState.OFF) && history.get(history.size() - 1) == PowerState.ON
                    && !hasOutOfService(client.nodes().withName(NODE).get());
        });
        out.println("   the out-of-service taint is gone, and the machine is ON again: " + NODE
                + " stays cordoned until it is Ready");
        client.nodes().withName(NODE).edit(node -> {
            node.getStatus().setConditions(List.of(ready("True", Instant.now())));
            return node;
        });
        out.println("   $ (the kubelet of " + NODE + " reports Ready again)");
        expected &= await(out, "the flow finishes", deadline, listing, () -> "final".equals(Optional.ofNullable(
                client.resources(NodeFenceResource.class).withName(NODE).get()).map(f -> f.getSpec().getState())
                .orElse(null)));
        Node recovered = client.nodes().withName(NODE).get();
        boolean clean = recovered.getSpec().getUnschedulable() != Boolean.TRUE
                && (recovered.getSpec().getTaints() == null || recovered.getSpec().getTaints().isEmpty());
        out.println("   " + NODE + " uncordoned, no remedy taint left: " + clean);
        expected &= clean;
        expected &= await(out, "the Events", deadline, listing, () -> reasons(client).containsAll(List.of(
                "FenceDecided", "FenceConfirmed", "WorkloadsReleased", "FenceFinished")));
        KubectlTables.events(out, events(client), Instant.now());
        out.println(expected ? "   as expected" : "   UNEXPECTED");
        out.flush();
        return expected;
    }

    private static void setUp(KubernetesClient client, SimulatedBmc bmc) {
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client); // deploy/crds/ holds them all: the leader watches NodeFenceRemediations
        for (String namespace : List.of(NAMESPACE, "medik8s-leases", "default")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
        }
        String parameters = IpmiDemo.parameters(bmc).entrySet().stream()
                .map(e -> e.getKey() + ": \"" + e.getValue() + "\"").collect(Collectors.joining(", ", "{", "}"));
        String fence = """
                templates:
                  bmc: {agent: ipmi, secrets: {password: {secret: {name: bmc-credentials, key: password}}}}
                topologies:
                  - name: default
                    power_management: {timeout: 30s, levels: [[bmc]]}
                nodes:
                  %s: {bmc: %s}
                """.formatted(NODE, parameters);
        configMap(client, "remedy-policies", "policies.yaml", POLICIES);
        configMap(client, "remedy-fence", "fence.yaml", fence);
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata()
                .withName("bmc-credentials").endMetadata().withData(Map.of("password", Base64.getEncoder()
                        .encodeToString(IpmiDemo.PASSWORD.getBytes(StandardCharsets.UTF_8)))).build()).create();
        client.nodes().resource(node(NODE, ready("False", Instant.now().minus(Duration.ofMinutes(2))))).create();
        // storm protection admits one fence among three nodes, two of them healthy
        client.nodes().resource(node("worker-2", ready("True", Instant.now()))).create();
        client.nodes().resource(node("worker-3", ready("True", Instant.now()))).create();
    }

    private static void configMap(KubernetesClient client, String name, String key, String content) {
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .endMetadata().withData(Map.of(key, content)).build()).create();
    }

    private static Node node(String name, NodeCondition condition) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(Map.of("kubernetes.io/hostname", name))
                .endMetadata().withNewStatus().withConditions(condition).withNewNodeInfo().withBootID("boot-1")
                .endNodeInfo().endStatus().build();
    }

    private static NodeCondition ready(String status, Instant since) {
        return new NodeConditionBuilder().withType("Ready").withStatus(status).withLastTransitionTime(since.toString())
                .withLastHeartbeatTime(Instant.now().toString()).build();
    }

    private static boolean hasOutOfService(Node node) {
        return node != null && node.getSpec().getTaints() != null && node.getSpec().getTaints().stream()
                .anyMatch(t -> Taint.OUT_OF_SERVICE.key().equals(t.getKey()));
    }

    private static List<String> reasons(KubernetesClient client) {
        return events(client).stream().map(Event::getReason).toList();
    }

    private static List<Event> events(KubernetesClient client) {
        return client.events().v1().events().inAnyNamespace().list().getItems().stream()
                .filter(e -> e.getRegarding() != null && NODE.equals(e.getRegarding().getName())).toList();
    }

    /** Waits for {@code condition} until {@code deadline}, printing the NodeFence whenever its step or state changes. */
    private static boolean await(PrintWriter out, String what, long deadline, Listing listing,
                                 BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            listing.printIfChanged();
            if (System.nanoTime() > deadline) {
                out.println("   UNEXPECTED: no " + what + " within " + BUDGET.toSeconds() + " s");
                return false;
            }
            Thread.sleep(20);
        }
        listing.printIfChanged();
        return true;
    }

    /** Prints {@code kubectl get nodefences} whenever a NodeFence's step or state changed since the last print. */
    private static final class Listing {
        private final PrintWriter out;
        private final KubernetesClient client;
        private String printed = "";

        Listing(PrintWriter out, KubernetesClient client) {
            this.out = out;
            this.client = client;
        }

        void printIfChanged() {
            List<NodeFenceResource> fences = client.resources(NodeFenceResource.class).list().getItems();
            String now = fences.stream().map(f -> f.getSpec().getStep() + "/" + f.getSpec().getState())
                    .collect(Collectors.joining(","));
            if (!fences.isEmpty() && !now.equals(printed)) {
                printed = now;
                KubectlTables.nodeFences(out, fences, Instant.now());
                out.flush();
            }
        }
    }

    /** Records the out-of-service taint the moment the node gets it: the flow removes it within seconds. */
    private static final class TaintWatcher implements Watcher<Node> {
        private final AtomicReference<String> seen;

        TaintWatcher(AtomicReference<String> seen) {
            this.seen = seen;
        }

        @Override
        public void eventReceived(Action action, Node node) {
            if (node.getSpec() != null && node.getSpec().getTaints() != null) {
                node.getSpec().getTaints().stream().filter(t -> Taint.OUT_OF_SERVICE.key().equals(t.getKey()))
                        .findFirst().ifPresent(t -> seen.compareAndSet(null, t.getKey() + "=" + t.getValue() + ":"
                                + t.getEffect()));
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            // the demo closes the watch at its end; a broken watch shows as a missed taint
        }
    }
}
