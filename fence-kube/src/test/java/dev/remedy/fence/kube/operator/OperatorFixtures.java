package dev.remedy.fence.kube.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** What the operator's end-to-end tests share: their nodes and a bounded wait that shows the Events on a timeout. */
final class OperatorFixtures {

    /** How long a test waits for the operator to do something. */
    static final Duration WAIT = Duration.ofSeconds(60);

    private OperatorFixtures() {
    }

    /**
     * The operator's namespace {@code remedy} with its ConfigMaps {@code remedy-policies} and {@code remedy-fence} and
     * the Secret {@code bmc} (key {@code pw}) they may name, and the namespaces of the node Leases and the Events.
     */
    static void configure(KubernetesClient client, String policies, String fence) {
        for (String namespace : List.of("remedy", "medik8s-leases", "default")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                    .build()).create();
        }
        client.configMaps().inNamespace("remedy").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-policies").endMetadata().withData(Map.of("policies.yaml", policies)).build()).create();
        client.configMaps().inNamespace("remedy").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-fence").endMetadata().withData(Map.of("fence.yaml", fence)).build()).create();
        client.secrets().inNamespace("remedy").resource(new SecretBuilder().withNewMetadata().withName("bmc")
                .endMetadata().withData(Map.of("pw", Base64.getEncoder().encodeToString(
                        "bmc-password".getBytes(StandardCharsets.UTF_8)))).build()).create();
    }

    /** A node whose Ready condition has been {@code ready} since {@code since}, heartbeating now. */
    static Node node(String name, String ready, Instant since) {
        NodeCondition condition = new NodeConditionBuilder().withType("Ready").withStatus(ready)
                .withLastTransitionTime(since.toString()).withLastHeartbeatTime(Instant.now().toString()).build();
        return new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of("kubernetes.io/hostname", name)).endMetadata()
                .withNewStatus().withConditions(condition).withNewNodeInfo().withBootID("boot-1").endNodeInfo()
                .endStatus().build();
    }

    /** Waits at most {@link #WAIT} for {@code condition}, polling every 50 ms; a failure names it and the Events. */
    static void await(String what, BooleanSupplier condition, Supplier<Object> events) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %s for: %s; Events: %s", WAIT, what, events.get())
                    .isLessThan(deadline);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
