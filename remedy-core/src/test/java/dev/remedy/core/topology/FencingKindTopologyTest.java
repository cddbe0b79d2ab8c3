package dev.remedy.core.topology;

import static dev.remedy.core.topology.FenceConfigurationLoaderTest.CONTROL_PLANE;
import static dev.remedy.core.topology.FenceConfigurationLoaderTest.SECRETS;
import static dev.remedy.core.topology.FenceConfigurationLoaderTest.fixture;
import static dev.remedy.core.topology.FenceConfigurationLoaderTest.issuesOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("fencing kinds in the fence topology")
class FencingKindTopologyTest {

    private static final FenceAgentRegistry AGENTS = TestAgents.everyKind();
    private static final String TEMPLATES = """
            templates:
              bmc: {agent: fake, secrets: {password: {env: BMC_PASSWORD}}}
              san: {agent: switch, secrets: {token: {env: SWITCH_TOKEN}}}
              sysrq: {agent: sysrq}
            """;
    private static final String NODES = """
            nodes:
              n1: {bmc: {plug: n1}, san: {port: 4}, sysrq: {host: n1.example}}
            """;

    private final FenceConfigurationLoader loader = new FenceConfigurationLoader();

    private static String topology(String isolation, String power) {
        return "topologies:\n  - name: default\n    isolation: {levels: " + isolation + "}\n"
                + "    power_management: {levels: " + power + "}\n";
    }

    @Test
    @DisplayName("the plan records each method's fencing kind, as its agent declares it")
    void planRecordsKinds() {
        NodePlan plan = loader.load(fixture("fence.yaml"), TestAgents.registry())
                .planFor("cp-1", CONTROL_PLANE, SECRETS).orElseThrow();

        ResolvedMethod fabric = plan.step(FenceStep.ISOLATION).levels().get(0).get(0);
        assertThat(fabric.name()).isEqualTo("fabric");
        assertThat(fabric.kind()).isEqualTo(FencingKind.FABRIC);
        assertThat(plan.step(FenceStep.POWER_MANAGEMENT).levels().stream().flatMap(List::stream)
                .map(ResolvedMethod::kind).toList()).hasSize(3).containsOnly(FencingKind.POWER);
    }

    @Test
    @DisplayName("fabric and soft methods under isolation are accepted and keep their kinds")
    void fabricAndSoftUnderIsolation() {
        FenceConfiguration config = loader.parse(TEMPLATES + topology("[[san, sysrq]]", "[[bmc]]") + NODES,
                "fence.yaml", AGENTS);

        NodePlan plan = config.planFor("n1", Map.of(), SECRETS).orElseThrow();

        assertThat(plan.step(FenceStep.ISOLATION).levels().get(0)).extracting(ResolvedMethod::name,
                        ResolvedMethod::kind)
                .containsExactly(tuple("san", FencingKind.FABRIC),
                        tuple("sysrq", FencingKind.SOFT));
        assertThat(plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0)).extracting(ResolvedMethod::kind)
                .containsExactly(FencingKind.POWER);
    }

    @Test
    @DisplayName("a fabric method under power management is refused where it is, saying to put it under isolation")
    void fabricUnderPowerManagement() {
        List<ConfigProblem> issues = issuesOf(() -> loader.parse(
                TEMPLATES + topology("[]", "[[bmc], [bmc, san]]") + NODES, "fence.yaml", AGENTS));

        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("topologies[0].power_management.levels[1][1]");
            assertThat(issue.message()).contains("template 'san' of agent 'switch'")
                    .contains("fabric fencing").contains("does not stop the machine")
                    .contains("put method 'san' under isolation");
        });
    }

    @Test
    @DisplayName("a soft method under power management is refused: it gives no evidence that the machine is off")
    void softUnderPowerManagement() {
        List<ConfigProblem> issues = issuesOf(() -> loader.parse(
                TEMPLATES + topology("[]", "[[sysrq]]") + NODES, "fence.yaml", AGENTS));

        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("topologies[0].power_management.levels[0][0]");
            assertThat(issue.message()).contains("template 'sysrq' of agent 'sysrq'").contains("soft fencing")
                    .contains("no evidence that the machine is off").contains("put method 'sysrq' under isolation");
        });
    }

    @Test
    @DisplayName("a soft method under recovery is refused: recovery runs ON, which soft fencing does not have")
    void softUnderRecovery() {
        String yaml = TEMPLATES + topology("[[sysrq]]", "[[bmc]]") + "    recovery: {levels: [[san], [sysrq]]}\n"
                + NODES;

        List<ConfigProblem> issues = issuesOf(() -> loader.parse(yaml, "fence.yaml", AGENTS));

        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("topologies[0].recovery.levels[1][0]");
            assertThat(issue.message()).contains("template 'sysrq'").contains("soft fencing has no ON")
                    .contains("remove method 'sysrq' from recovery");
        });
    }

    @Test
    @DisplayName("a self-fencing method stands under power management only: accepted there with its kind, refused"
            + " under isolation and recovery")
    void selfUnderPowerManagementOnly() {
        String templates = TEMPLATES + "  self: {agent: self-node}\n";
        String nodes = NODES.replace("sysrq: {host: n1.example}}", "sysrq: {host: n1.example}, self: {node: n1}}");
        FenceConfiguration config = loader.parse(templates + topology("[]", "[[self], [bmc]]") + nodes,
                "fence.yaml", TestAgents.withSelf());

        assertThat(config.planFor("n1", Map.of(), SECRETS).orElseThrow().step(FenceStep.POWER_MANAGEMENT).levels())
                .flatExtracting(level -> level.stream().map(ResolvedMethod::kind).toList())
                .containsExactly(FencingKind.SELF, FencingKind.POWER);

        String misplaced = templates + topology("[[self]]", "[[bmc]]") + "    recovery: {levels: [[self]]}\n" + nodes;
        List<ConfigProblem> issues = issuesOf(() -> loader.parse(misplaced, "fence.yaml", TestAgents.withSelf()));

        assertThat(issues).extracting(ConfigProblem::path).containsExactlyInAnyOrder(
                "topologies[0].isolation.levels[0][0]", "topologies[0].recovery.levels[0][0]");
        assertThat(issues).allSatisfy(issue -> assertThat(issue.message()).contains("template 'self'")
                .contains("self fencing").contains("put method 'self' under power_management only"));
    }

    @Test
    @DisplayName("a misplaced kind is reported together with the file's other problems, once per place")
    void reportedWithTheOtherProblems() {
        String yaml = TEMPLATES + """
                topologies:
                  - name: workers
                    selector: {role: worker}
                    power_management: {levels: [[san], [sysrq]], timout: 9s}
                  - name: default
                    isolation: {levels: [[san]]}
                    power_management: {levels: [[bmc], [san]]}
                """ + NODES;

        List<ConfigProblem> issues = issuesOf(() -> loader.parse(yaml, "fence.yaml", AGENTS));

        assertThat(issues).extracting(ConfigProblem::path).containsExactlyInAnyOrder(
                "topologies[0].power_management.timout",
                "topologies[0].power_management.levels[0][0]",
                "topologies[0].power_management.levels[1][0]",
                "topologies[1].power_management.levels[1][0]");
    }
}
