package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceConfiguration.planFor")
class FenceConfigurationTest {

    private static final String YAML = """
            templates:
              bmc: {agent: fake, parameters: {username: admin}, secrets: {password: {env: BMC_PASSWORD}}}
              pdu: {agent: fake, secrets: {password: {file: /run/secrets/pdu}}}
            topologies:
              - name: gpu
                selector: {pool: gpu, zone: a}
                power_management: {levels: [[pdu]]}
              - name: control-plane
                selector: {node-role.kubernetes.io/control-plane: ""}
                power_management: {levels: [[bmc], [pdu]]}
            nodes:
              cp-1: {bmc: {plug: cp-1}, pdu: {plug: "1"}}
              gpu-1: {pdu: {plug: "2"}}
            """;
    private static final SecretResolver SECRETS = SecretResolver.of(Map.of(
            SecretRef.env("BMC_PASSWORD"), Secret.of("bmc-pw"),
            SecretRef.file("/run/secrets/pdu"), Secret.of("pdu-pw")));

    private final FenceConfiguration config = new FenceConfigurationLoader().parse(YAML, "fence.yaml",
            TestAgents.registry());

    @Test
    @DisplayName("chooses the first topology whose selector matches every one of its labels")
    void firstMatchingTopology() {
        assertThat(config.topologyFor(Map.of("pool", "gpu", "zone", "a", "node-role.kubernetes.io/control-plane", "")))
                .as("both match: the first wins").hasValue("gpu");
        assertThat(config.topologyFor(Map.of("pool", "gpu", "node-role.kubernetes.io/control-plane", "")))
                .as("gpu needs zone too").hasValue("control-plane");
        assertThat(config.planFor("gpu-1", Map.of("pool", "gpu", "zone", "a"), SECRETS)).get()
                .extracting(NodePlan::topology).isEqualTo("gpu");
    }

    @Test
    @DisplayName("gives no plan to a node that no topology matches when there is no default")
    void noDefault() {
        assertThat(config.topologyFor(Map.of("pool", "gpu", "zone", "b"))).isEmpty();
        assertThat(config.planFor("worker-9", Map.of("node-role.kubernetes.io/control-plane", "true"), SECRETS))
                .as("a label with another value does not match").isEmpty();
    }

    @Test
    @DisplayName("refuses a plan whose methods miss parameters, naming node, template and parameter for each")
    void missingNodeParameters() {
        FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                () -> config.planFor("cp-2", Map.of("node-role.kubernetes.io/control-plane", ""), SECRETS));

        assertThat(refused.issues()).extracting(ConfigProblem::path).containsExactly("nodes.cp-2.bmc",
                "nodes.cp-2.pdu");
        assertThat(refused.issues().get(0).message()).isEqualTo("node 'cp-2', template 'bmc' (agent 'fake'): "
                + "parameter 'plug' is required but was not given; give text (the outlet or machine to fence); add it"
                + " under nodes.cp-2.bmc or under templates.bmc");
        assertThat(refused.issues()).allSatisfy(issue -> assertThat(issue.source()).isEqualTo("fence.yaml"));
    }

    @Test
    @DisplayName("refuses a plan whose secret cannot be read, naming node, template, parameter and reference")
    void unreadableSecret() {
        SecretResolver onlyBmc = SecretResolver.of(Map.of(SecretRef.env("BMC_PASSWORD"), Secret.of("bmc-pw")));

        FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                () -> config.planFor("cp-1", Map.of("node-role.kubernetes.io/control-plane", ""), onlyBmc));

        assertThat(refused.issues()).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("templates.pdu.secrets.password");
            assertThat(issue.message()).isEqualTo("node 'cp-1', template 'pdu' (agent 'fake'): secret parameter "
                    + "'password' cannot be read: no secret is known for {file: /run/secrets/pdu}; give it to the "
                    + "secret resolver");
        });
    }

    @Test
    @DisplayName("resolves each method once and shares it between the steps and levels that use it")
    void methodsShared() {
        NodePlan plan = config.planFor("cp-1", Map.of("node-role.kubernetes.io/control-plane", ""), SECRETS)
                .orElseThrow();

        ResolvedMethod pdu = plan.step(FenceStep.POWER_MANAGEMENT).levels().get(1).get(0);
        assertThat(pdu.name()).isEqualTo("pdu");
        assertThat(pdu.config().string("plug")).isEqualTo("1");
        assertThat(pdu.config().string("username")).as("the agent's default").isEqualTo("admin");
        assertThat(pdu.config().validate()).isEmpty();
    }
}
