package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Instantiating a remediation object from a template, and reading the escalate strategy from its spec. */
class ExternalRemediationTest {

    private static final MachineRef MACHINE = new MachineRef("cluster.x-k8s.io/v1beta1", "Machine", "worker-3",
            "prod", "6f1c1f2e-0000-4000-8000-000000000003");

    private static Map<String, Object> spec() {
        Map<String, Object> strategy = new LinkedHashMap<>();
        strategy.put("type", "escalate");
        strategy.put("deleteAfterRetries", 2);
        strategy.put("powerOffTimeoutSeconds", 120);
        strategy.put("powerOnTimeoutSeconds", 900);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("strategy", strategy);
        spec.put("labels", new ArrayList<>(List.of("a", "b")));
        return spec;
    }

    private static RemediationTemplate metal3(boolean multiple) {
        return new RemediationTemplate("infrastructure.cluster.x-k8s.io/v1beta1", "Metal3RemediationTemplate",
                "m3-group", "capi-system", multiple, spec());
    }

    @Test
    @DisplayName("for a Machine: the template's kind without 'Template', the machine's name and namespace, the cloned-from "
            + "annotations, the cluster-name label and one owner reference to the machine, as MachineHealthCheck")
    void instantiateForMachine() {
        RemediationRequest r = ExternalRemediation.instantiate(metal3(true), MACHINE, "prod-cluster");
        assertThat(r.apiVersion()).isEqualTo("infrastructure.cluster.x-k8s.io/v1beta1");
        assertThat(r.kind()).isEqualTo("Metal3Remediation");
        assertThat(r.name()).isEqualTo("worker-3");
        assertThat(r.generateName()).as("a Machine's object is always named like the Machine").isFalse();
        assertThat(r.namespace()).isEqualTo("prod");
        assertThat(r.labels()).containsExactlyEntriesOf(Map.of("cluster.x-k8s.io/cluster-name", "prod-cluster"));
        assertThat(r.annotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cluster.x-k8s.io/cloned-from-name", "m3-group",
                "cluster.x-k8s.io/cloned-from-groupkind", "Metal3RemediationTemplate.infrastructure.cluster.x-k8s.io"));
        assertThat(r.owners()).containsExactly(new OwnerReference("cluster.x-k8s.io/v1beta1", "Machine", "worker-3",
                "6f1c1f2e-0000-4000-8000-000000000003", false));
        assertThat(r.spec()).isEqualTo(spec());
        assertThat(EscalateStrategy.fromSpec(r.spec()))
                .isEqualTo(new EscalateStrategy(2, Duration.ofSeconds(120), Duration.ofSeconds(900)));
    }

    @Test
    @DisplayName("for a plain node: named like the node in the template's namespace, with NodeHealthCheck's annotations "
            + "and no owner")
    void instantiateForNode() {
        RemediationRequest r = ExternalRemediation.instantiate(metal3(false), new NodeRef("worker-7", false));
        assertThat(r.kind()).isEqualTo("Metal3Remediation");
        assertThat(r.name()).isEqualTo("worker-7");
        assertThat(r.generateName()).isFalse();
        assertThat(r.namespace()).isEqualTo("capi-system");
        assertThat(r.labels()).isEmpty();
        assertThat(r.annotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "remediation.medik8s.io/node-name", "worker-7", "remediation.medik8s.io/template-name", "m3-group"));
        assertThat(r.owners()).isEmpty();
        assertThat(r.spec()).isEqualTo(spec());
    }

    @Test
    @DisplayName("for a control-plane node whose template supports multiple templates: generateName <node>- and the "
            + "isControlPlaneNode label")
    void instantiateMultiple() {
        RemediationRequest r = ExternalRemediation.instantiate(metal3(true), new NodeRef("cp-1", true));
        assertThat(r.name()).isEqualTo("cp-1-");
        assertThat(r.generateName()).isTrue();
        assertThat(r.labels()).containsExactlyEntriesOf(Map.of("remediation.medik8s.io/isControlPlaneNode", ""));
    }

    @Test
    @DisplayName("the group-kind of a core-group template is its kind alone")
    void groupKind() {
        assertThat(new RemediationTemplate("v1", "XTemplate", "t", "ns", false, Map.of()).groupKind())
                .isEqualTo("XTemplate");
    }

    @Test
    @DisplayName("the template's spec is deep-copied and unmodifiable, so objects never share mutable state")
    void deepCopy() {
        Map<String, Object> source = spec();
        RemediationTemplate template = new RemediationTemplate("v1", "XTemplate", "t", "ns", false, source);
        @SuppressWarnings("unchecked")
        List<Object> labels = (List<Object>) source.get("labels");
        labels.add("c");
        source.put("extra", true);
        assertThat(template.spec()).doesNotContainKey("extra");
        assertThat(template.spec().get("labels")).isEqualTo(List.of("a", "b"));
        assertThatThrownBy(() -> template.spec().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> strategy = (Map<String, Object>) template.spec().get("strategy");
        assertThatThrownBy(() -> strategy.put("type", "other")).isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest(name = "kind ''{0}'' is refused")
    @CsvSource({"Metal3Remediation", "Template", "RemediationTemplates"})
    @DisplayName("a template kind must be a kind followed by 'Template'")
    void badKind(String kind) {
        assertThatThrownBy(() -> new RemediationTemplate("v1", kind, "t", "ns", false, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind").hasMessageContaining(kind);
    }

    @Test
    @DisplayName("blank fields, null values and foreign value types are refused with the field named")
    void validation() {
        assertThatThrownBy(() -> new MachineRef("v1", "Machine", " ", "ns", "uid")).hasMessageContaining("name");
        assertThatThrownBy(() -> new MachineRef("v1", "Machine", "m", "", "uid")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> new MachineRef("v1", "Machine", "m", "ns", null)).hasMessageContaining("uid");
        assertThatThrownBy(() -> new OwnerReference("v1", "", "m", "u", true)).hasMessageContaining("kind");
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("a", null);
        assertThatThrownBy(() -> new RemediationTemplate("v1", "XTemplate", "t", "ns", false, Map.of("outer", withNull)))
                .hasMessageContaining("spec.outer.a");
        assertThatThrownBy(() -> new RemediationTemplate("v1", "XTemplate", "t", "ns", false, Map.of("d", Duration.ZERO)))
                .hasMessageContaining("spec.d").hasMessageContaining("unsupported");
        assertThatThrownBy(() -> new RemediationTemplate("v1", "XTemplate", "t", "ns", false, Map.of("l", List.of(Map.of(1, 2)))))
                .hasMessageContaining("spec.l[0]");
        assertThatThrownBy(() -> ExternalRemediation.instantiate(null, MACHINE, "c")).hasMessageContaining("template");
    }

    @Test
    @DisplayName("absent strategy fields take their defaults")
    void strategyDefaults() {
        assertThat(EscalateStrategy.fromSpec(Map.of("strategy", Map.of("type", "escalate"))))
                .isEqualTo(EscalateStrategy.ofDefaults());
        assertThat(EscalateStrategy.ofDefaults()).isEqualTo(new EscalateStrategy(1, Duration.ofSeconds(300),
                Duration.ofSeconds(600)));
    }

    @Test
    @DisplayName("the Cluster API design's flat form is read as written: strategy: escalate with the fields beside it")
    void flatStrategy() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("strategy", "escalate");
        spec.put("deleteAfterRetries", 10);
        spec.put("powerOnTimeoutSeconds", 600);
        spec.put("powerOffTimeoutSeconds", 120);
        assertThat(EscalateStrategy.fromSpec(spec))
                .isEqualTo(new EscalateStrategy(10, Duration.ofSeconds(120), Duration.ofSeconds(600)));
        assertThat(EscalateStrategy.fromSpec(Map.of("strategy", "escalate"))).isEqualTo(EscalateStrategy.ofDefaults());
    }

    @Test
    @DisplayName("every problem of a strategy is listed at once, each naming its field")
    void strategyProblems() {
        Map<String, Object> bad = Map.of("strategy", Map.of("type", "reboot", "deleteAfterRetries", -1,
                "powerOffTimeoutSeconds", "60s", "powerOnTimeoutSeconds", 0, "retryLimit", 3));
        assertThatThrownBy(() -> EscalateStrategy.fromSpec(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strategy.type").hasMessageContaining("strategy.deleteAfterRetries")
                .hasMessageContaining("strategy.powerOffTimeoutSeconds")
                .hasMessageContaining("strategy.powerOnTimeoutSeconds").hasMessageContaining("strategy.retryLimit");
        assertThatThrownBy(() -> EscalateStrategy.fromSpec(Map.of())).hasMessageContaining("strategy");
        Map<String, Object> flatBad = Map.of("strategy", "reboot", "deleteAfterRetries", -1, "retryLimit", 3);
        assertThatThrownBy(() -> EscalateStrategy.fromSpec(flatBad)).hasMessageContaining("strategy: must be 'escalate'")
                .hasMessageContaining("deleteAfterRetries: must be between 0")
                .hasMessageContaining("retryLimit: unknown field").hasMessageNotContaining("strategy.");
        assertThatThrownBy(() -> EscalateStrategy.fromSpec(Map.of("strategy", 3))).hasMessageContaining("neither text");
        assertThatThrownBy(() -> new EscalateStrategy(-1, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessageContaining("deleteAfterRetries");
        assertThatThrownBy(() -> new EscalateStrategy(0, Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("powerOffTimeout");
        assertThatThrownBy(() -> new EscalateStrategy(0, Duration.ofSeconds(1), Duration.ofSeconds(-1)))
                .hasMessageContaining("powerOnTimeout");
    }
}
