package dev.remedy.fence.kube.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The NodeFence CRD generated at build time, its copy in deploy/crds, and {@link NodeFenceCrd}. */
@DisplayName("NodeFenceCrd")
@EnableKubernetesMockClient(crud = true)
class NodeFenceCrdTest {

    /** The copy admins apply, at the repository root (tests run in the module's directory). */
    private static final Path DEPLOY_COPY = Path.of("..", "deploy", "crds", NodeFenceCrd.NAME + "-v1.yml");

    KubernetesClient client;

    @Test
    @DisplayName("the shipped CRD is the cluster-scoped remedy.dev/v1alpha1 NodeFence, short name nf, without a "
            + "status subresource, keeping the record's unknown fields")
    void shape() {
        CustomResourceDefinition crd = NodeFenceCrd.load();

        assertThat(crd.getMetadata().getName()).isEqualTo("nodefences.remedy.dev");
        assertThat(crd.getSpec().getGroup()).isEqualTo("remedy.dev");
        assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(crd.getSpec().getNames().getKind()).isEqualTo("NodeFence");
        assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("nodefences");
        assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("nf");
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
        assertThat(version.getName()).isEqualTo("v1alpha1");
        assertThat(version.getSubresources() == null || version.getSubresources().getStatus() == null).isTrue();
        assertThat(version.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties().get("record")
                .getXKubernetesPreserveUnknownFields()).isTrue();
    }

    @Test
    @DisplayName("kubectl get nodefences shows node, step, state, retries, reason and age")
    void printerColumns() {
        Map<String, String> columns = NodeFenceCrd.load().getSpec().getVersions().get(0).getAdditionalPrinterColumns()
                .stream().collect(Collectors.toMap(CustomResourceColumnDefinition::getName,
                        CustomResourceColumnDefinition::getJsonPath));

        assertThat(columns).containsOnly(Map.entry("Node", ".spec.node"), Map.entry("Step", ".spec.step"),
                Map.entry("State", ".spec.state"), Map.entry("Retries", ".spec.retries"),
                Map.entry("Reason", ".spec.reason"), Map.entry("Age", ".metadata.creationTimestamp"));
    }

    @Test
    @DisplayName("deploy/crds holds exactly the CRD generated from NodeFenceResource")
    void deployCopyIsCurrent() throws Exception {
        String generated;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(NodeFenceCrd.RESOURCE)) {
            assertThat(in).as("%s on the class path", NodeFenceCrd.RESOURCE).isNotNull();
            generated = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        assertThat(DEPLOY_COPY).exists();
        assertThat(Files.readString(DEPLOY_COPY))
                .as("%s differs from the CRD generated from NodeFenceResource; refresh it from the repository root "
                        + "with: ./mvnw -o -q -pl fence-kube -am process-classes && cp "
                        + "fence-kube/target/classes/%s deploy/crds/", DEPLOY_COPY.normalize(), NodeFenceCrd.RESOURCE)
                .isEqualTo(generated);
    }

    @Test
    @DisplayName("apply creates the CRD, and applying it again replaces it")
    void applyTwice() {
        CustomResourceDefinition first = NodeFenceCrd.apply(client);
        CustomResourceDefinition second = NodeFenceCrd.apply(client);

        assertThat(first.getMetadata().getName()).isEqualTo(NodeFenceCrd.NAME);
        assertThat(second.getMetadata().getUid()).isEqualTo(first.getMetadata().getUid());
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName(NodeFenceCrd.NAME).get()
                .getSpec().getNames().getKind()).isEqualTo("NodeFence");
    }

    @Test
    @DisplayName("a CRD counts as established only with the condition Established=True")
    void established() {
        assertThat(NodeFenceCrd.established(null)).isFalse();
        assertThat(NodeFenceCrd.established(NodeFenceCrd.load())).isFalse();
        assertThat(NodeFenceCrd.established(withCondition("NamesAccepted", "True"))).isFalse();
        assertThat(NodeFenceCrd.established(withCondition("Established", "False"))).isFalse();
        assertThat(NodeFenceCrd.established(withCondition("Established", "True"))).isTrue();
    }

    private static CustomResourceDefinition withCondition(String type, String status) {
        return new CustomResourceDefinitionBuilder(NodeFenceCrd.load()).withNewStatus().addNewCondition()
                .withType(type).withStatus(status).endCondition().endStatus().build();
    }
}
