package dev.remedy.fence.kube.remediation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The NodeFenceRemediation CRDs generated at build time and their copies in deploy/crds. */
@DisplayName("RemediationCrds")
class RemediationCrdsTest {

    @Test
    @DisplayName("both are namespaced remedy.dev/v1alpha1 with a status subresource and short names nfr and nfrt; "
            + "the template holds spec.template.spec; FAR's defaults are the CRD's")
    void shape() {
        List<CustomResourceDefinition> crds = RemediationCrds.load();

        assertThat(crds).extracting(c -> c.getSpec().getNames().getKind())
                .containsExactly("NodeFenceRemediation", "NodeFenceRemediationTemplate");
        assertThat(crds).extracting(c -> c.getSpec().getNames().getShortNames().get(0)).containsExactly("nfr", "nfrt");
        for (CustomResourceDefinition crd : crds) {
            assertThat(crd.getSpec().getGroup()).isEqualTo("remedy.dev");
            assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
            CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
            assertThat(version.getName()).isEqualTo("v1alpha1");
            assertThat(version.getSubresources().getStatus()).isNotNull();
        }
        JSONSchemaProps spec = crds.get(0).getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema()
                .getProperties().get("spec");
        assertThat(spec.getProperties()).containsKeys("agent", "sharedparameters", "nodeparameters", "retrycount",
                "retryinterval", "timeout", "remediationStrategy", "nodeSecretNames", "sharedSecretName", "topology",
                "strategy", "deleteAfterRetries", "powerOnTimeoutSeconds", "powerOffTimeoutSeconds");
        assertThat(spec.getProperties().get("retrycount").getDefault().asInt()).isEqualTo(5);
        assertThat(spec.getProperties().get("retryinterval").getDefault().asText()).isEqualTo("5s");
        assertThat(spec.getProperties().get("timeout").getDefault().asText()).isEqualTo("60s");
        assertThat(spec.getProperties().get("remediationStrategy").getDefault().asText()).isEqualTo("ResourceDeletion");
        assertThat(crds.get(1).getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties()
                .get("spec").getProperties().get("template").getProperties().get("spec").getProperties())
                .containsKeys("agent", "sharedparameters");
    }

    @Test
    @DisplayName("deploy/crds holds exactly the generated CRDs")
    void deployCopiesAreCurrent() throws Exception {
        for (String name : RemediationCrds.NAMES) {
            String generated;
            try (InputStream in = getClass().getClassLoader().getResourceAsStream(RemediationCrds.resource(name))) {
                assertThat(in).as(RemediationCrds.resource(name)).isNotNull();
                generated = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Path copy = Path.of("..", "deploy", "crds", name + "-v1.yml");
            assertThat(Files.readString(copy)).as("%s differs from the generated CRD; refresh it from the repository "
                    + "root with: ./mvnw -o -q -pl fence-kube -am process-classes && cp fence-kube/target/classes/%s "
                    + "deploy/crds/", copy.normalize(), RemediationCrds.resource(name)).isEqualTo(generated);
        }
    }
}
