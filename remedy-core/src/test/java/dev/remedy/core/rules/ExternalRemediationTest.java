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

    @Test
    @DisplayName("the object has the template's kind without 'Template', the machine's name and namespace, and a controller owner reference")
    void instantiate() {
        RemediationTemplate template = new RemediationTemplate("infrastructure.cluster.x-k8s.io/v1beta1",
                "Metal3RemediationTemplate", spec());
        RemediationRequest r = ExternalRemediation.instantiate(template, MACHINE);
        assertThat(r.apiVersion()).isEqualTo("infrastructure.cluster.x-k8s.io/v1beta1");
        assertThat(r.kind()).isEqualTo("Metal3Remediation");
        assertThat(r.name()).isEqualTo("worker-3");
        assertThat(r.namespace()).isEqualTo("prod");
        assertThat(r.owner()).isEqualTo(new OwnerReference("cluster.x-k8s.io/v1beta1", "Machine", "worker-3",
                "6f1c1f2e-0000-4000-8000-000000000003", true));
        assertThat(r.spec()).isEqualTo(spec());
        assertThat(EscalateStrategy.fromSpec(r.spec()))
                .isEqualTo(new EscalateStrategy(2, Duration.ofSeconds(120), Duration.ofSeconds(900)));
    }

    @Test
    @DisplayName("the template's spec is deep-copied and unmodifiable, so objects never share mutable state")
    void deepCopy() {
        Map<String, Object> source = spec();
        RemediationTemplate template = new RemediationTemplate("v1", "XTemplate", source);
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
        assertThatThrownBy(() -> new RemediationTemplate("v1", kind, Map.of()))
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
        assertThatThrownBy(() -> new RemediationTemplate("v1", "XTemplate", Map.of("outer", withNull)))
                .hasMessageContaining("spec.outer.a");
        assertThatThrownBy(() -> new RemediationTemplate("v1", "XTemplate", Map.of("d", Duration.ZERO)))
                .hasMessageContaining("spec.d").hasMessageContaining("unsupported");
        assertThatThrownBy(() -> new RemediationTemplate("v1", "XTemplate", Map.of("l", List.of(Map.of(1, 2)))))
                .hasMessageContaining("spec.l[0]");
        assertThatThrownBy(() -> ExternalRemediation.instantiate(null, MACHINE)).hasMessageContaining("template");
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
    @DisplayName("every problem of a strategy is listed at once, each naming its field")
    void strategyProblems() {
        Map<String, Object> bad = Map.of("strategy", Map.of("type", "reboot", "deleteAfterRetries", -1,
                "powerOffTimeoutSeconds", "60s", "powerOnTimeoutSeconds", 0, "retryLimit", 3));
        assertThatThrownBy(() -> EscalateStrategy.fromSpec(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strategy.type").hasMessageContaining("strategy.deleteAfterRetries")
                .hasMessageContaining("strategy.powerOffTimeoutSeconds")
                .hasMessageContaining("strategy.powerOnTimeoutSeconds").hasMessageContaining("strategy.retryLimit");
        assertThatThrownBy(() -> EscalateStrategy.fromSpec(Map.of())).hasMessageContaining("strategy");
        assertThatThrownBy(() -> new EscalateStrategy(-1, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessageContaining("deleteAfterRetries");
        assertThatThrownBy(() -> new EscalateStrategy(0, Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("powerOffTimeout");
        assertThatThrownBy(() -> new EscalateStrategy(0, Duration.ofSeconds(1), Duration.ofSeconds(-1)))
                .hasMessageContaining("powerOnTimeout");
    }
}
