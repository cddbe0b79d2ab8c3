package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.fence.kube.config.NodeAgentSettingsMap;
import dev.remedy.fence.kube.testing.RbacCheck;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every request a node agent sends (its check, a peer's question, its Lease, its settings) is allowed by
 * {@code deploy/node-agent/20-rbac.yaml}, as the API server's authorizer would see it (fence-kube's {@link RbacCheck}).
 */
@EnableKubernetesMockClient(crud = true)
class NodeAgentRbacTest {

    private static final String AGENT = "remedy-node-agent-under-test";
    private static final Path RBAC = Path.of("..", "deploy", "node-agent", "20-rbac.yaml");

    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    @DisplayName("the agent's requests are all allowed by its RBAC")
    void everyRequestAllowed() throws Exception {
        NodeFenceCrd.apply(client);
        RemediationCrds.apply(client);
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("w1").addToAnnotations(
                "cluster.x-k8s.io/machine", "m1").addToAnnotations("cluster.x-k8s.io/cluster-namespace", "capi")
                .endMetadata().build()).create();
        while (server.takeRequest(10, TimeUnit.MILLISECONDS) != null) {
            // the test's own setup
        }
        Config config = new ConfigBuilder(client.getConfiguration()).withUserAgent(AGENT).build();
        try (KubernetesClient agent = new KubernetesClientBuilder().withConfig(config).build()) {
            NodeAgentSettings settings = NodeAgentSettingsMap.read(agent, "remedy");
            KubeClusterView view = new KubeClusterView(agent, "remedy", settings, "v1beta1");
            view.check("w1", Instant.EPOCH);
            view.judge("w2", Instant.EPOCH);
            view.report("w1", WatchdogMode.ARMED, Optional.of(Duration.ofSeconds(60)), Instant.EPOCH);
            view.report("w1", WatchdogMode.ARMED, Optional.of(Duration.ofSeconds(60)), Instant.EPOCH.plusSeconds(15));
        }
        assertThat(denied()).as("requests deploy/node-agent/20-rbac.yaml does not allow").isEmpty();
    }

    private List<String> denied() throws Exception {
        RbacCheck.Requests requests = RbacCheck.check(server, client, RBAC, AGENT);
        assertThat(requests.seen()).as("the requests checked").contains("get nodes", "list nodes",
                "get remedy.dev/nodefences", "list remedy.dev/nodefenceremediations",
                "get cluster.x-k8s.io/machines in capi", "get configmaps in remedy",
                "create coordination.k8s.io/leases in remedy", "update coordination.k8s.io/leases in remedy");
        return requests.denied();
    }
}
