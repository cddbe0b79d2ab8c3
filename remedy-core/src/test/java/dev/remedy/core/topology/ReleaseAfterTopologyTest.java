package dev.remedy.core.topology;

import static dev.remedy.core.topology.FenceConfigurationLoaderTest.SECRETS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ReleaseAfter;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("releaseAfter in a topology, and the warning about fabric isolation that does not persist")
class ReleaseAfterTopologyTest {

    private static final FenceAgentRegistry AGENTS = TestAgents.everyKind();
    private static final String TEMPLATES = """
            templates:
              bmc: {agent: fake, secrets: {password: {env: BMC_PASSWORD}}}
              san: {agent: switch, parameters: {persistent: true}, secrets: {token: {env: SWITCH_TOKEN}}}
              lan: {agent: switch, secrets: {token: {env: SWITCH_TOKEN}}}
              sysrq: {agent: sysrq}
            nodes:
              n1: {bmc: {plug: n1}, san: {port: 4}, lan: {port: 5}, sysrq: {host: n1.example}}
            """;

    private final FenceConfigurationLoader loader = new FenceConfigurationLoader();

    private FenceConfiguration load(String topology) {
        return loader.parse(TEMPLATES + "topologies:\n  - name: storage\n" + topology, "fence.yaml", AGENTS);
    }

    @Test
    @DisplayName("releaseAfter: isolation with fabric methods whose isolation persists and no power method loads,"
            + " and the node's plan carries it")
    void fabricOnlyTopology() {
        NodePlan plan = load("    releaseAfter: isolation\n    isolation: {levels: [[san]]}\n")
                .planFor("n1", Map.of(), SECRETS).orElseThrow();

        assertThat(plan.releaseAfter()).isEqualTo(ReleaseAfter.ISOLATION);
    }

    @Test
    @DisplayName("without releaseAfter, a plan releases after power")
    void powerIsTheDefault() {
        NodePlan plan = load("    isolation: {levels: [[san]]}\n    power_management: {levels: [[bmc]]}\n")
                .planFor("n1", Map.of(), SECRETS).orElseThrow();

        assertThat(plan.releaseAfter()).isEqualTo(ReleaseAfter.POWER);
    }

    @Test
    @DisplayName("releaseAfter: isolation is refused with a fabric method whose isolation does not persist, a soft"
            + " method, no isolation level, or a value that is neither power nor isolation")
    void refused() {
        assertThatThrownBy(() -> load("    releaseAfter: isolation\n    isolation: {levels: [[lan], [sysrq]]}\n"))
                .isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("topologies[0].releaseAfter: is isolation, but template 'lan' (agent 'switch')"
                        + " isolates the node in a way that a restart of its device undoes")
                .hasMessageContaining("template 'sysrq' (agent 'sysrq') is soft fencing");
        assertThatThrownBy(() -> load("    releaseAfter: isolation\n    power_management: {levels: [[bmc]]}\n"))
                .hasMessageContaining("topologies[0].releaseAfter: is isolation, but topologies[0].isolation has no"
                        + " levels");
        assertThatThrownBy(() -> load("    releaseAfter: fabric\n    isolation: {levels: [[san]]}\n"))
                .hasMessageContaining("topologies[0].releaseAfter: must be power (the default");
    }

    @Test
    @DisplayName("a node whose own parameters turn persistence off is refused when its plan is built")
    void nodeParametersCheckedInThePlan() {
        FenceConfiguration config = loader.parse(TEMPLATES.replace("san: {port: 4}", "san: {port: 4, persistent:"
                + " false}") + "topologies:\n  - name: storage\n    releaseAfter: isolation\n"
                + "    isolation: {levels: [[san]]}\n", "fence.yaml", AGENTS);

        assertThatThrownBy(() -> config.planFor("n1", Map.of(), SECRETS))
                .isInstanceOf(FenceConfigurationException.class)
                .hasMessageContaining("node 'n1': releaseAfter is isolation, but template 'san' (agent 'switch')");
    }

    @Test
    @DisplayName("a fabric isolation level whose isolation does not persist is valid but warned about; a persistent"
            + " one is not")
    void warnings() {
        FenceConfiguration config = load("    isolation: {levels: [[san], [lan]]}\n"
                + "    power_management: {levels: [[bmc]]}\n");

        assertThat(config.warnings()).containsExactly("fence.yaml: topology 'storage', isolation level 2: template"
                + " 'lan' (agent 'switch') isolates the node only until its device restarts: a reload while the node"
                + " is fenced re-admits it; use a device profile whose isolation persists");
    }
}
