package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogMode;
import dev.remedy.fence.kube.config.NodeAgentSettingsMap;
import dev.remedy.fence.kube.remediation.RemediationCrds;
import dev.remedy.fence.kube.store.NodeFenceCrd;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every request a node agent sends (its check, a peer's question, its Lease, its settings) is allowed by
 * {@code deploy/node-agent/20-rbac.yaml}, as the API server's authorizer would see it (verb, group, resource,
 * namespace; resource names are not checked).
 */
@EnableKubernetesMockClient(crud = true)
class NodeAgentRbacTest {

    private static final String AGENT = "remedy-node-agent-under-test";
    private static final Path RBAC = Path.of("..", "deploy", "node-agent", "20-rbac.yaml");
    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/v1|apis/([^/]+)/[^/]+)(?:/namespaces/([^/]+))?/([^/?]+)(?:/([^/?]+))?");

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
        List<HasMetadata> objects;
        try (InputStream in = Files.newInputStream(RBAC)) {
            objects = client.load(in).items();
        }
        TreeSet<String> denied = new TreeSet<>();
        TreeSet<String> seen = new TreeSet<>();
        RecordedRequest request;
        while ((request = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
            if (!AGENT.equals(request.getHeader("User-Agent"))) {
                continue;
            }
            Matcher m = PATH.matcher(request.getPath());
            if (!m.find()) {
                denied.add("unparsed " + request.getMethod() + " " + request.getPath());
                continue;
            }
            String group = m.group(1) == null ? "" : m.group(1);
            String verb = switch (request.getMethod()) {
                case "GET" -> m.group(4) != null ? "get" : "list";
                case "POST" -> "create";
                case "PUT" -> "update";
                default -> request.getMethod();
            };
            String described = verb + " " + (group.isEmpty() ? "" : group + "/") + m.group(3)
                    + (m.group(2) == null ? "" : " in " + m.group(2));
            seen.add(described);
            if (!allowed(objects, verb, group, m.group(3), m.group(2))) {
                denied.add(described);
            }
        }
        assertThat(seen).as("the requests checked").contains("get nodes", "list nodes", "get remedy.dev/nodefences",
                "list remedy.dev/nodefenceremediations", "get cluster.x-k8s.io/machines in capi",
                "get configmaps in remedy", "create coordination.k8s.io/leases in remedy",
                "update coordination.k8s.io/leases in remedy");
        return List.copyOf(denied);
    }

    private static boolean allowed(List<HasMetadata> objects, String verb, String group, String resource,
            String namespace) {
        for (HasMetadata object : objects) {
            List<PolicyRule> rules = object instanceof ClusterRole role ? role.getRules()
                    : object instanceof Role role && role.getMetadata().getNamespace().equals(namespace)
                    ? role.getRules() : List.of();
            for (PolicyRule rule : rules) {
                if (rule.getApiGroups().contains(group) && rule.getResources().contains(resource)
                        && rule.getVerbs().contains(verb)) {
                    return true;
                }
            }
        }
        return false;
    }
}
