package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A secret value, wherever it is written by mistake, never reaches a message, a toString or a stack trace. */
@DisplayName("secret values")
class SecretsNeverShownTest {

    private static final String VALUE = "hunter2xyzzy";

    private final FenceConfigurationLoader loader = new FenceConfigurationLoader();

    private static String everything(Throwable thrown) {
        StringWriter text = new StringWriter();
        thrown.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    @Test
    @DisplayName("written in every wrong place of a file, appear in no issue and no stack trace")
    void misplacedSecrets() {
        String yaml = """
                templates:
                  bmc:
                    agent: fake
                    parameters: {password: hunter2xyzzy, pasword: hunter2xyzzy, plug: x}
                  pdu:
                    agent: fake
                    parameters: {plug: x}
                    secrets: {password: hunter2xyzzy}
                  ilo:
                    agent: fake
                    parameters: {plug: x}
                    secrets: {password: {hunter2xyzzy}}
                  rf:
                    agent: fake
                    parameters: {plug: x}
                    secrets: {password: {env: "hunter2xyzzy!"}}
                  kvm:
                    agent: fake
                    parameters: {plug: x}
                    secrets: {password: {file: hunter2xyzzy}}
                topologies:
                  - name: default
                    power_management: {levels: [[bmc], [pdu], [ilo], [rf], [kvm]]}
                nodes:
                  n1: {bmc: {password: hunter2xyzzy, paswd: hunter2xyzzy}}
                """;

        FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                () -> loader.parse(yaml, "fence.yaml", TestAgents.registry()));

        assertThat(refused.issues()).hasSizeGreaterThanOrEqualTo(8)
                .allSatisfy(issue -> assertThat(issue.toString()).doesNotContain(VALUE));
        assertThat(everything(refused)).doesNotContain(VALUE);
    }

    @ParameterizedTest(name = "in {0}")
    @CsvSource(delimiter = '|', value = {
        "a YAML line with a syntax error | fence.yaml | 'templates:\n  bmc:\n    password: hunter2xyzzy: x\n'",
        "YAML badly indented | fence.yaml | 'templates:\n  bmc:\n    agent: x\n   password: hunter2xyzzy\n'",
        "an unterminated YAML string | fence.yaml | 'templates: {bmc: {password: \"hunter2xyzzy'",
        "an unquoted JSON value | fence.json | '{\"password\": hunter2xyzzy}'",
        "an unterminated JSON string | fence.json | '{\"password\": \"hunter2xyzzy'"})
    @DisplayName("appear in no syntax error")
    void syntaxErrors(String where, String source, String text) {
        FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                () -> loader.parse(text, source, TestAgents.registry()));

        assertThat(refused.issues()).singleElement().extracting(ConfigProblem::message).asString()
                .contains("syntax error").containsPattern("^line \\d+, column \\d+: ");
        assertThat(everything(refused)).doesNotContain(VALUE);
    }

    @Test
    @DisplayName("once resolved, appear in no plan, configuration or refusal text")
    void resolved() {
        String yaml = """
                templates:
                  bmc: {agent: fake, secrets: {password: {env: PW}}}
                  pdu: {agent: fake, secrets: {password: {env: PW}}}
                topologies:
                  - name: default
                    power_management: {levels: [[bmc], [pdu]]}
                nodes:
                  n1: {bmc: {plug: n1}, pdu: {plug: "1"}}
                """;
        FenceConfiguration config = loader.parse(yaml, "fence.yaml", TestAgents.registry());
        SecretResolver resolver = SecretResolver.of(Map.of(SecretRef.env("PW"), Secret.of(VALUE)));

        NodePlan plan = config.planFor("n1", Map.of(), resolver).orElseThrow();
        FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                () -> config.planFor("n2", Map.of(), resolver));

        assertThat(plan.step(FenceStep.POWER_MANAGEMENT).levels().get(0).get(0).config().secret("password"))
                .map(Secret::reveal).hasValue(VALUE);
        assertThat(plan.toString()).contains("password=******").doesNotContain(VALUE);
        assertThat(config.toString()).contains("{env: PW}").doesNotContain(VALUE);
        assertThat(everything(refused)).contains("nodes.n2.bmc", "nodes.n2.pdu").doesNotContain(VALUE);
    }
}
