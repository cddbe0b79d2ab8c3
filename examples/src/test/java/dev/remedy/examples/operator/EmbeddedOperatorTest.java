package dev.remedy.examples.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.operator.RemedyOperator;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The README's operator example on fabric8's mock API server (CRUD mode): the CRD installed, the pool's Lease taken
 * by this replica, the configuration read, and the Lease handed over on close.
 */
@EnableKubernetesMockClient(crud = true)
class EmbeddedOperatorTest {

    KubernetesClient client;

    @Test
    @DisplayName("the embedded operator installs the CRD, leads its pool, reads its configuration and hands over")
    void leadsItsPool() throws InterruptedException {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ops").endMetadata().build())
                .create();
        client.configMaps().inNamespace("ops").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-policies").endMetadata().withData(Map.of("policies.yaml", """
                        policies:
                          - name: workers
                            unhealthyConditions: [{type: Ready, status: "False", duration: 300s}]
                            escalation: [{name: fence, fence: {}, timeout: 10m}]
                        """)).build()).create();
        client.configMaps().inNamespace("ops").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("remedy-fence").endMetadata().withData(Map.of("fence.yaml", """
                        templates:
                          bmc: {agent: fake, secrets: {password: {secret: {name: bmc, key: password}}}}
                        topologies:
                          - name: default
                            power_management: {levels: [[bmc]]}
                        nodes:
                          worker-1: {bmc: {plug: worker-1}}
                        """)).build()).create();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        try (RemedyOperator operator = EmbeddedOperator.start(client, meters, "ops", "blue", "operator-0")) {
            awaitLeading(operator);
            assertThat(operator.ready()).as("configuration read, nodes listed").isTrue();
            assertThat(client.apiextensions().v1().customResourceDefinitions().withName("nodefences.remedy.dev")
                    .get()).isNotNull();
            assertThat(client.leases().inNamespace("ops").withName("remedy-blue").get().getSpec()
                    .getHolderIdentity()).isEqualTo("operator-0");
            assertThat(operator.meters()).isSameAs(meters);
        }
        long handedOver = System.nanoTime();
        try (RemedyOperator standby = EmbeddedOperator.start(client, meters, "ops", "blue", "operator-1")) {
            awaitLeading(standby);
            assertThat(Duration.ofNanos(System.nanoTime() - handedOver)).as("closing handed the Lease over: the "
                    + "standby did not wait out the 15 s lease duration").isLessThan(Duration.ofSeconds(12));
        }
    }

    private static void awaitLeading(RemedyOperator operator) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (!(operator.leading() && operator.ready()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(operator.leading()).as("leads its pool").isTrue();
    }
}
