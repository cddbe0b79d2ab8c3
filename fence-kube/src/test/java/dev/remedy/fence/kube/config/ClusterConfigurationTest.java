package dev.remedy.fence.kube.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.fence.kube.config.internal.ProblemNote;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
@DisplayName("ClusterConfiguration")
class ClusterConfigurationTest {

    private static final String NAMESPACE = "remedy";
    private static final String POLICIES = """
            policies:
              - name: workers
                unhealthyConditions: [{type: Ready, status: "False", duration: 300s}]
                escalation: [{name: fence, fence: {}, timeout: 10m}]
            """;
    private static final String FENCE = """
            templates:
              bmc: {agent: fake, parameters: {username: admin}, secrets: {password: {secret: {name: bmc, key: pw}}}}
            topologies:
              - name: default
                power_management: {timeout: 120s, levels: [[bmc]]}
            nodes:
              worker-1: {bmc: {plug: worker-1}}
            """;

    KubernetesClient client;

    private final List<KubeEvents.Note> notes = new CopyOnWriteArrayList<>();
    private final List<ClusterConfiguration.Configuration> applied = new CopyOnWriteArrayList<>();
    private ClusterConfiguration configuration;

    @AfterEach
    void close() {
        if (configuration != null) {
            configuration.close();
        }
        client.close(); // its watch connections closed before the mock server shuts down (slow under load)
    }

    private void start() throws Exception {
        configuration = ClusterConfiguration.builder(client, NAMESPACE,
                        FenceAgentRegistry.of(new FakeFenceAgentProvider()), applied::add)
                .events(notes::add).build();
        configuration.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private void put(String name, Map<String, String> data) {
        ConfigMap map = new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                .withData(data).build();
        client.configMaps().inNamespace(NAMESPACE).resource(map).createOr(existing -> existing.update());
    }

    /** Polls {@code condition} every 20 ms for at most 10 s (an informer delivers asynchronously). */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    private List<KubeEvents.Note> warnings() {
        return notes.stream().filter(KubeEvents.Note::warning).toList();
    }

    @Test
    @DisplayName("applies a valid configuration, keeps a bad change out with one Warning naming every problem, "
            + "then applies the fix")
    void lifecycle() throws Exception {
        put(ClusterConfiguration.DEFAULT_POLICIES, Map.of("policies.yaml", POLICIES));
        put(ClusterConfiguration.DEFAULT_FENCE, Map.of("fence.yaml", FENCE));
        start();

        assertThat(applied).singleElement().satisfies(c -> {
            assertThat(c.policies().names()).containsExactly("workers");
            assertThat(c.fence().nodeNames()).containsExactly("worker-1");
        });
        assertThat(notes).singleElement().satisfies(n -> {
            assertThat(n.warning()).isFalse();
            assertThat(n.reason()).isEqualTo(ClusterConfiguration.APPLIED);
        });

        // Two problems in one change: an unknown template and a negative retry count.
        put(ClusterConfiguration.DEFAULT_FENCE, Map.of("fence.yaml", FENCE.replace("levels: [[bmc]]",
                "retries: -1, levels: [[bcm]]")));
        await("a Warning is published", () -> !warnings().isEmpty());

        assertThat(warnings()).singleElement().satisfies(n -> {
            assertThat(n.reason()).isEqualTo(ClusterConfiguration.REFUSED);
            assertThat(n.regarding().getKind()).isEqualTo("ConfigMap");
            assertThat(n.regarding().getName()).isEqualTo(ClusterConfiguration.DEFAULT_FENCE);
            assertThat(n.regarding().getNamespace()).isEqualTo(NAMESPACE);
            assertThat(n.note()).startsWith("configuration refused, the running one is kept (2 problems): ")
                    .contains("remedy-fence/fence.yaml:topologies[0].power_management.retries: is -1")
                    .contains("remedy-fence/fence.yaml:topologies[0].power_management.levels[0][0]: names the "
                            + "unknown template 'bcm'")
                    .hasSizeLessThanOrEqualTo(ProblemNote.MAX_LENGTH);
        });
        assertThat(applied).hasSize(1);
        assertThat(configuration.current().orElseThrow()).isSameAs(applied.get(0));

        put(ClusterConfiguration.DEFAULT_FENCE, Map.of("fence.yaml", FENCE.replace("worker-1}}",
                "worker-1}}\n  worker-2: {bmc: {plug: worker-2}}")));
        await("the fix is applied", () -> applied.size() == 2);

        assertThat(applied.get(1).fence().nodeNames()).containsExactly("worker-1", "worker-2");
        assertThat(configuration.current().orElseThrow()).isSameAs(applied.get(1));
        assertThat(notes.get(notes.size() - 1)).satisfies(n -> {
            assertThat(n.warning()).isFalse();
            assertThat(n.reason()).isEqualTo(ClusterConfiguration.APPLIED);
        });
        assertThat(warnings()).hasSize(1);
    }

    @Test
    @DisplayName("names problems of the policies and of the fence configuration in one Warning, and a missing "
            + "ConfigMap; applies nothing")
    void nothingValid() throws Exception {
        put(ClusterConfiguration.DEFAULT_POLICIES, Map.of("policies.yaml", POLICIES.replace("300s", "soon")));
        start();

        assertThat(applied).isEmpty();
        assertThat(configuration.current()).isEmpty();
        assertThat(warnings()).singleElement().satisfies(n -> assertThat(n.note())
                .startsWith("configuration refused, none is running yet (2 problems): ")
                .contains("remedy-policies/policies.yaml:policies[0].unhealthyConditions[0].duration: ")
                .contains("remedy-fence: the ConfigMap does not exist; create it with the key fence.yaml"));
    }

    @Test
    @DisplayName("reads fence-config-<node> ConfigMaps into that node's plan, with its secret from a Secret")
    void perNode() throws Exception {
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata().withName("bmc")
                .endMetadata().withData(Map.of("pw", Base64.getEncoder().encodeToString("shared".getBytes()),
                        "host0", Base64.getEncoder().encodeToString("own".getBytes()))).build()).create();
        put(ClusterConfiguration.DEFAULT_POLICIES, Map.of("policies.yaml", POLICIES));
        put(ClusterConfiguration.DEFAULT_FENCE, Map.of("fence.yaml", FENCE));
        put("fence-config-host0", Map.of(
                "config.properties", "node_name=host0\npower_management=psu-a-off psu-a-on psu-b",
                "fence-method-psu-a-off", "template=fence-method-template-bmc\nplug=1\naction=off",
                "fence-method-psu-a-on", "template=fence-method-template-bmc\nplug=1\naction=on",
                "fence-method-psu-b", "template=fence-method-template-bmc\nplug=2\n"
                        + "password={secret: {name: bmc, key: host0}}"));
        put("unrelated", Map.of("a", "b"));
        start();

        ClusterConfiguration.Configuration config = configuration.current().orElseThrow();
        NodePlan plan = config.fence().planFor("host0", Map.of(), new KubeSecretResolver(client, NAMESPACE))
                .orElseThrow();

        assertThat(config.fence().nodeConfigNames()).containsExactly("host0");
        assertThat(plan.topology()).isEqualTo("fence-config-host0");
        List<ResolvedMethod> level = plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0);
        assertThat(level).extracting(ResolvedMethod::name).containsExactly("psu-a-off", "psu-b");
        assertThat(level.get(0).config().secret("password").orElseThrow().reveal()).isEqualTo("shared");
        assertThat(level.get(1).config().secret("password").orElseThrow().reveal()).isEqualTo("own");
        assertThat(plan.step(FenceStep.POWER_MANAGEMENT).timeout()).isEqualTo(Duration.ofSeconds(120));

        // A bad per-node change is refused on that ConfigMap, naming both problems; the plan stays.
        put("fence-config-host0", Map.of("config.properties", "power_management=psu-c\nkdump=yes",
                "fence-method-psu-c", "template=fence-method-template-pdu\nplug=3"));
        await("a Warning is published", () -> !warnings().isEmpty());

        assertThat(warnings()).singleElement().satisfies(n -> {
            assertThat(n.regarding().getName()).isEqualTo("fence-config-host0");
            assertThat(n.note()).contains("(2 problems)")
                    .contains("fence-config-host0:fence-method-psu-c.template: names the unknown template 'pdu'")
                    .contains("fence-config-host0:[\"config.properties\"].kdump: is not a key here");
        });
        assertThat(configuration.current().orElseThrow()).isSameAs(config);
    }
}
