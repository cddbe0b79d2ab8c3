package dev.remedy.fence.kube.remediation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.ReleaseStrategy;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.kube.agent.SelfNodeFenceAgentProvider;
import dev.remedy.fence.kube.remediation.NodeFenceRemediationSpec;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A NodeFenceRemediation's spec as a fence plan: FenceAgentsRemediation's names mapped onto remedy's agents. */
@DisplayName("SpecPlanner")
class SpecPlannerTest {

    private static final FenceAgentRegistry AGENTS = FenceAgentRegistry.of(new IpmiFenceAgentProvider());
    private static final NodePlan TOPOLOGY_PLAN = new NodePlan("worker-1", "racks", Map.of(
            FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(30)),
            FenceStep.POWER_MANAGEMENT, StepPlan.none(Duration.ofSeconds(30)),
            FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(30))));
    private final SpecPlanner planner = new SpecPlanner(AGENTS,
            node -> node.equals("worker-1") ? Optional.of(TOPOLOGY_PLAN) : Optional.empty());

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fence_ipmilan", "fence_ipmilanplus", "fence_idrac", "fence_ilo3", "fence_ilo4",
        "fence_ilo5", "fence_imm", "ipmi"})
    @DisplayName("fence_ipmilan, the names it is installed under, and remedy's own type run the ipmi agent")
    void ipmilanAliases(String agent) {
        SpecPlanner.Planned planned = planner.plan(spec(agent), "worker-1", Map.of());

        assertThat(planned.problems()).isEmpty();
        ResolvedMethod method = planned.plan().orElseThrow().step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0);
        assertThat(method.agentType()).isEqualTo("ipmi");
        assertThat(method.name()).isEqualTo(agent);
    }

    @Test
    @DisplayName("FAR's option spellings (--ip, ip, --power-timeout, an empty --lanplus) become the agent's parameters;"
            + " a node's value wins over the shared one; {{.NodeName}} is the node")
    void parameters() {
        NodeFenceRemediationSpec spec = spec("fence_ipmilan");
        spec.setSharedParameters(Map.of("--ip", "10.0.0.1", "username", "admin-{{.NodeName}}", "--password", "pw",
                "--lanplus", "", "--power-timeout", "7s", "--ipport", "623"));
        spec.setNodeParameters(Map.of("--ipport", Map.of("worker-1", "6230", "worker-2", "6231")));

        var config = planner.plan(spec, "worker-1", Map.of()).plan().orElseThrow().step(FenceStep.POWER_MANAGEMENT)
                .levels().get(0).get(0).config();

        assertThat(config.string("ip")).isEqualTo("10.0.0.1");
        assertThat(config.integer("ipport")).isEqualTo(6230);
        assertThat(config.string("username")).isEqualTo("admin-worker-1");
        assertThat(config.bool("lanplus")).isTrue();
        assertThat(config.duration("power_timeout")).isEqualTo(Duration.ofSeconds(7));
        assertThat(config.secret("password")).isPresent();
    }

    @Test
    @DisplayName("agent self-node with --plug {{.NodeName}} (FAR's spelling) plans self fencing of the node under power"
            + " management, as NodeHealthCheck would ask for self-node remediation")
    void selfNode() {
        SpecPlanner selfPlanner = new SpecPlanner(FenceAgentRegistry.of(new SelfNodeFenceAgentProvider()),
                node -> Optional.empty());
        NodeFenceRemediationSpec spec = spec(SelfNodeFenceAgentProvider.TYPE);
        spec.setSharedParameters(Map.of("--plug", "{{.NodeName}}"));
        spec.setRemediationStrategy("OutOfServiceTaint");

        SpecPlanner.Planned planned = selfPlanner.plan(spec, "worker-1", Map.of());

        assertThat(planned.problems()).isEmpty();
        ResolvedMethod method = planned.plan().orElseThrow().step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0);
        assertThat(method.kind()).isEqualTo(FencingKind.SELF);
        assertThat(method.config().string("node")).isEqualTo("worker-1");
        assertThat(planned.release()).isEqualTo(ReleaseStrategy.OUT_OF_SERVICE_TAINT);
    }

    @Test
    @DisplayName("retrycount attempts of timeout each, with retryinterval between them, make the power step")
    void retriesAndBudget() {
        NodeFenceRemediationSpec spec = spec("fence_ipmilan");
        spec.setRetryCount(3);
        spec.setRetryInterval("1m30s");
        spec.setTimeout("20s");

        StepPlan power = planner.plan(spec, "worker-1", Map.of()).plan().orElseThrow()
                .step(FenceStep.POWER_MANAGEMENT);

        assertThat(power.retries()).isEqualTo(2);
        assertThat(power.timeout()).isEqualTo(Duration.ofSeconds(3 * 20 + 2 * 90));
    }

    @Test
    @DisplayName("FAR's defaults: 5 attempts of 60 s, 5 s apart, and ResourceDeletion (the Node object deleted)")
    void defaults() {
        SpecPlanner.Planned planned = planner.plan(spec("fence_ipmilan"), "worker-1", Map.of());

        StepPlan power = planned.plan().orElseThrow().step(FenceStep.POWER_MANAGEMENT);
        assertThat(power.retries()).isEqualTo(4);
        assertThat(power.timeout()).isEqualTo(Duration.ofSeconds(5 * 60 + 4 * 5));
        assertThat(planned.release()).isEqualTo(ReleaseStrategy.DELETE_NODE);
    }

    @Test
    @DisplayName("a parameter given in a Secret and in the spec, a bad action and a bad strategy are all reported")
    void problems() {
        NodeFenceRemediationSpec spec = spec("fence_ipmilan");
        spec.setSharedParameters(Map.of("--ip", "10.0.0.1", "--username", "admin", "--password", "pw",
                "--action", "on"));
        spec.setRemediationStrategy("Reboot");
        spec.setTimeout("soon");

        List<String> problems = planner.plan(spec, "worker-1", Map.of("--password", "pw2")).problems();

        assertThat(problems).hasSize(4).anyMatch(p -> p.contains("--password") && p.contains("Secret"))
                .anyMatch(p -> p.contains("--action")).anyMatch(p -> p.contains("remediationStrategy"))
                .anyMatch(p -> p.contains("timeout")).noneMatch(p -> p.contains("pw2"));
    }

    @Test
    @DisplayName("without an agent the fence topology's plan is used, and spec.topology must name it")
    void topology() {
        NodeFenceRemediationSpec spec = new NodeFenceRemediationSpec();
        spec.setRemediationStrategy("OutOfServiceTaint");

        SpecPlanner.Planned planned = planner.plan(spec, "worker-1", Map.of());
        spec.setTopology("other");
        SpecPlanner.Planned wrong = planner.plan(spec, "worker-1", Map.of());
        SpecPlanner.Planned uncovered = planner.plan(new NodeFenceRemediationSpec(), "worker-9", Map.of());

        assertThat(planned.plan()).contains(TOPOLOGY_PLAN);
        assertThat(planned.release()).isEqualTo(ReleaseStrategy.OUT_OF_SERVICE_TAINT);
        assertThat(wrong.problems()).singleElement().asString().contains("racks").contains("other");
        assertThat(uncovered.problems()).singleElement().asString().contains("worker-9");
    }

    @Test
    @DisplayName("fence_redfish maps to redfish, which this registry lacks: the agent gap is reported, not guessed")
    void redfishWithoutItsModule() {
        SpecPlanner.Planned planned = planner.plan(spec("fence_redfish"), "worker-1", Map.of());

        assertThat(planned.agentGap()).isTrue();
        assertThat(planned.problems()).singleElement().asString().contains("fence_redfish")
                .contains("ClusterLabs bridge");
    }

    @Test
    @DisplayName("Go durations: 5s, 1m30s, 500ms, 1h; anything else is a problem and the default is kept")
    void goDurations() {
        List<String> problems = new ArrayList<>();

        assertThat(SpecPlanner.duration("t", "5s", Duration.ZERO, problems)).isEqualTo(Duration.ofSeconds(5));
        assertThat(SpecPlanner.duration("t", "1m30s", Duration.ZERO, problems)).isEqualTo(Duration.ofSeconds(90));
        assertThat(SpecPlanner.duration("t", "500ms", Duration.ZERO, problems)).isEqualTo(Duration.ofMillis(500));
        assertThat(SpecPlanner.duration("t", "1h", Duration.ZERO, problems)).isEqualTo(Duration.ofHours(1));
        assertThat(problems).isEmpty();
        assertThat(SpecPlanner.duration("t", "5 s x", Duration.ofSeconds(1), problems)).isEqualTo(Duration.ofSeconds(1));
        assertThat(SpecPlanner.duration("t", "0s", Duration.ofSeconds(1), problems)).isEqualTo(Duration.ofSeconds(1));
        assertThat(problems).hasSize(2);
    }

    private static NodeFenceRemediationSpec spec(String agent) {
        NodeFenceRemediationSpec spec = new NodeFenceRemediationSpec();
        spec.setAgent(agent);
        spec.setSharedParameters(Map.of("--ip", "10.0.0.1", "--username", "admin", "--password", "pw"));
        return spec;
    }
}
