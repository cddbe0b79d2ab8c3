package dev.remedy.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("FenceConfigurationLoader")
class FenceConfigurationLoaderTest {

    static final SecretResolver SECRETS = SecretResolver.of(Map.of(
            SecretRef.env("BMC_PASSWORD"), Secret.of("bmc-pw"),
            SecretRef.file("/run/secrets/pdu"), Secret.of("pdu-pw"),
            SecretRef.env("SWITCH_TOKEN"), Secret.of("switch-token"),
            SecretRef.env("WORKER_1_PASSWORD"), Secret.of("worker-1-pw")));
    static final Map<String, String> CONTROL_PLANE = Map.of("node-role.kubernetes.io/control-plane", "",
            "kubernetes.io/hostname", "cp-1");
    static final Map<String, String> WORKER = Map.of("node-role.kubernetes.io/worker", "");

    private final FenceConfigurationLoader loader = new FenceConfigurationLoader();

    static Path fixture(String name) {
        try {
            return Path.of(Objects.requireNonNull(FenceConfigurationLoaderTest.class.getResource(name), name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<List<String>> names(StepPlan step) {
        return step.levels().stream().map(level -> level.stream().map(ResolvedMethod::name).toList()).toList();
    }

    static AgentConfig config(StepPlan step, int level, int method) {
        return step.levels().get(level).get(method).config();
    }

    static List<ConfigProblem> issuesOf(Runnable load) {
        return catchThrowableOfType(FenceConfigurationException.class, load::run).issues();
    }

    @Nested
    @DisplayName("with the valid fixture")
    class Valid {

        private final FenceConfiguration yaml = loader.load(fixture("fence.yaml"), TestAgents.registry());

        @Test
        @DisplayName("lists its topologies in order, its templates and the nodes with their own parameters")
        void names() {
            assertThat(yaml.topologyNames()).containsExactly("control-plane", "default");
            assertThat(yaml.templateNames()).containsExactly("bmc", "pdu-a", "pdu-b", "fabric");
            assertThat(yaml.nodeNames()).containsExactly("cp-1", "worker-1");
            assertThat(yaml.source()).endsWith("fence.yaml");
        }

        @Test
        @DisplayName("gives a control-plane node its levels in order (OR), each with its methods (AND)")
        void controlPlaneLevels() {
            NodePlan plan = yaml.planFor("cp-1", CONTROL_PLANE, SECRETS).orElseThrow();

            assertThat(plan.node()).isEqualTo("cp-1");
            assertThat(plan.topology()).isEqualTo("control-plane");
            StepPlan power = plan.step(FenceStep.POWER_MANAGEMENT);
            assertThat(power.timeout()).isEqualTo(Duration.ofSeconds(120));
            assertThat(power.retries()).isEqualTo(2);
            assertThat(FenceConfigurationLoaderTest.names(power))
                    .containsExactly(List.of("bmc"), List.of("pdu-a", "pdu-b"));
            StepPlan isolation = plan.step(FenceStep.ISOLATION);
            assertThat(isolation.timeout()).isEqualTo(Duration.ofSeconds(20));
            assertThat(isolation.retries()).isZero();
            assertThat(FenceConfigurationLoaderTest.names(isolation)).containsExactly(List.of("fabric"));
        }

        @Test
        @DisplayName("gives a step the topology leaves out the defaults: 60s, no retry, no level")
        void defaultStep() {
            StepPlan recovery = yaml.planFor("cp-1", CONTROL_PLANE, SECRETS).orElseThrow().step(FenceStep.RECOVERY);

            assertThat(recovery.timeout()).isEqualTo(FenceConfiguration.DEFAULT_STEP_TIMEOUT)
                    .isEqualTo(Duration.ofSeconds(60));
            assertThat(recovery.retries()).isEqualTo(FenceConfiguration.DEFAULT_STEP_RETRIES).isZero();
            assertThat(recovery.levels()).isEmpty();
        }

        @Test
        @DisplayName("merges template and node parameters, the node's winning, and resolves secrets")
        void mergedParameters() {
            StepPlan power = yaml.planFor("cp-1", CONTROL_PLANE, SECRETS).orElseThrow()
                    .step(FenceStep.POWER_MANAGEMENT);

            AgentConfig bmc = config(power, 0, 0);
            assertThat(bmc.agentType()).isEqualTo("fake");
            assertThat(bmc.string("plug")).isEqualTo("cp-1");
            assertThat(bmc.string("username")).as("the node's username wins").isEqualTo("root");
            assertThat(bmc.duration("login_timeout")).isEqualTo(Duration.ofSeconds(5));
            assertThat(bmc.secret("password")).map(Secret::reveal).hasValue("bmc-pw");
            AgentConfig pduA = config(power, 1, 0);
            assertThat(pduA.string("username")).as("given as the alias login").isEqualTo("pdu-operator");
            assertThat(pduA.string("plug")).isEqualTo("7");
            assertThat(pduA.secret("password")).map(Secret::reveal).hasValue("pdu-pw");
            assertThat(config(power, 1, 1).string("plug")).as("a YAML number becomes text").isEqualTo("8");
            AgentConfig fabric = yaml.planFor("cp-1", CONTROL_PLANE, SECRETS).orElseThrow()
                    .step(FenceStep.ISOLATION).levels().get(0).get(0).config();
            assertThat(fabric.agentType()).isEqualTo("switch");
            assertThat(fabric.integer("port")).isEqualTo(12);
            assertThat(fabric.secret("token")).map(Secret::reveal).hasValue("switch-token");
        }

        @Test
        @DisplayName("gives a worker the default topology, the template's parameters and the node's own secret")
        void workerDefault() {
            NodePlan plan = yaml.planFor("worker-1", WORKER, SECRETS).orElseThrow();

            assertThat(plan.topology()).isEqualTo("default");
            assertThat(plan.step(FenceStep.ISOLATION)).isEqualTo(new StepPlan(Duration.ofSeconds(30), 1, List.of()));
            StepPlan power = plan.step(FenceStep.POWER_MANAGEMENT);
            assertThat(power.timeout()).isEqualTo(Duration.ofMinutes(1));
            assertThat(power.retries()).isEqualTo(1);
            assertThat(FenceConfigurationLoaderTest.names(power)).containsExactly(List.of("bmc"));
            AgentConfig bmc = config(power, 0, 0);
            assertThat(bmc.string("plug")).isEqualTo("worker-1");
            assertThat(bmc.string("username")).isEqualTo("admin");
            assertThat(bmc.secret("password")).as("the node's reference wins").map(Secret::reveal)
                    .hasValue("worker-1-pw");
            assertThat(plan.step(FenceStep.RECOVERY).timeout()).isEqualTo(Duration.ofSeconds(90));
        }

        @Test
        @DisplayName("reads the same document in JSON to exactly the same plans")
        void jsonIsTheSame() {
            FenceConfiguration json = loader.load(fixture("fence.json"), TestAgents.registry());

            assertThat(json.topologyNames()).isEqualTo(yaml.topologyNames());
            assertThat(json.templateNames()).isEqualTo(yaml.templateNames());
            assertThat(json.nodeNames()).isEqualTo(yaml.nodeNames());
            Map<String, Map<String, String>> nodes = Map.of("cp-1", CONTROL_PLANE, "worker-1", WORKER);
            nodes.forEach((node, labels) -> {
                NodePlan fromYaml = yaml.planFor(node, labels, SECRETS).orElseThrow();
                NodePlan fromJson = json.planFor(node, labels, SECRETS).orElseThrow();
                assertThat(fromJson.topology()).isEqualTo(fromYaml.topology());
                for (FenceStep step : FenceStep.values()) {
                    // AgentConfig has no equals: its text (secrets masked) shows every parameter, in order.
                    assertThat(fromJson.step(step)).hasToString(fromYaml.step(step).toString());
                    assertThat(revealed(fromJson.step(step))).isEqualTo(revealed(fromYaml.step(step)));
                }
            });
        }

        private List<String> revealed(StepPlan step) {
            return step.levels().stream().flatMap(List::stream).map(m -> m.config().parameters().stream()
                    .filter(p -> p.secret()).map(p -> m.config().secret(p.name()).map(Secret::reveal).orElse("-"))
                    .toList().toString()).toList();
        }
    }

    @Nested
    @DisplayName("refusing a file")
    class Refusals {

        @Test
        @DisplayName("lists every problem of a broken file in one exception, each with file and path")
        void everyProblemAtOnce() {
            Path broken = fixture("broken.yaml");
            FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                    () -> loader.load(broken, TestAgents.registry()));

            assertThat(refused.issues()).extracting(ConfigProblem::path).containsExactlyInAnyOrder(
                    "extra",
                    "templates.bmc.parameters.pasword",
                    "templates.bmc.parameters.login_timeout",
                    "templates.pdu.parameters.password",
                    "templates.pdu.secrets.username",
                    "templates.ilo.agent",
                    "templates.spare.agnet",
                    "templates.spare.agent",
                    "topologies[0]",
                    "topologies[0].recover",
                    "topologies[0].power_management.timeout",
                    "topologies[0].power_management.retries",
                    "topologies[0].power_management.levels[0][1]",
                    "topologies[0].power_management.levels[1]",
                    "topologies[1].isolation.retry",
                    "topologies[2]",
                    "nodes.worker-1.bmc.password",
                    "nodes.worker-1.pdu",
                    "nodes.worker-1.pdu");
            assertThat(refused.issues()).allSatisfy(issue -> assertThat(issue.source()).isEqualTo(broken.toString()));
            assertThat(refused.getMessage()).startsWith("invalid fence configuration (19 problems):")
                    .contains(broken + ":templates.ilo.agent: unknown agent type 'ilo5'; known types: fake, switch")
                    .contains(broken + ":topologies[0].recover: is not a known key; did you mean 'recovery'?")
                    .contains(broken + ":nodes.worker-1.pdu: misses the required parameter 'plug'")
                    .contains(broken + ":nodes.worker-1.pdu: misses the required parameter 'password'")
                    .doesNotContain("hunter2");
            assertThat(refused.getMessage().lines()).hasSize(20);
        }

        @ParameterizedTest(name = "refuses {0}")
        @MethodSource("dev.remedy.core.topology.FenceConfigurationLoaderTest#problems")
        @DisplayName("refuses each kind of problem with its path and what to do")
        void eachProblem(String kind, String yaml, String path, String message, int count) {
            List<ConfigProblem> issues = issuesOf(() -> loader.parse(yaml, "fence.yaml", TestAgents.registry()));

            assertThat(issues).hasSize(count);
            assertThat(issues).filteredOn(issue -> issue.path().equals(path)).singleElement()
                    .satisfies(issue -> assertThat(issue.message()).contains(message))
                    .satisfies(issue -> assertThat(issue.source()).isEqualTo("fence.yaml"));
        }

        @Test
        @DisplayName("checks every method of every node with its agent's own checks, each value where it is written")
        void agentChecks() {
            String yaml = """
                    templates:
                      sw: {agent: switch, parameters: {port: 70000}, secrets: {token: {env: T}}}
                      bmc: {agent: fake, secrets: {password: {env: PW}}}
                    topologies:
                      - name: default
                        isolation: {levels: [[sw]]}
                        power_management: {levels: [[bmc]]}
                    nodes:
                      n1: {bmc: {plug: n1}, sw: {port: 0}}
                      n2: {bmc: {plug: n2}, sw: {port: 99999}}
                      n3: {bmc: {plug: n3}}
                    """;

            List<ConfigProblem> issues = issuesOf(() -> loader.parse(yaml, "fence.yaml", TestAgents.registry()));

            assertThat(issues).extracting(ConfigProblem::path).containsExactlyInAnyOrder(
                    "templates.sw.parameters.port", "nodes.n1.sw.port", "nodes.n2.sw.port");
            assertThat(issues).allSatisfy(issue -> assertThat(issue.message()).contains("agent 'switch'")
                    .contains("not a switch port").contains("give 1 to 65535"));
        }

        @Test
        @DisplayName("leaves a secret given by reference to be judged when it is read, not at load time")
        void secretsJudgedWhenRead() {
            String yaml = """
                    templates:
                      sw: {agent: switch, parameters: {port: 7}, secrets: {token: {env: T}}}
                    topologies:
                      - name: default
                        isolation: {levels: [[sw]]}
                    """;
            FenceConfiguration configuration = loader.parse(yaml, "fence.yaml", TestAgents.registry());

            FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                    () -> configuration.planFor("n1", Map.of(), SecretResolver.of(Map.of(SecretRef.env("T"),
                            Secret.of("short")))));

            assertThat(refused.issues()).singleElement().satisfies(issue -> {
                assertThat(issue.path()).isEqualTo("templates.sw.secrets.token");
                assertThat(issue.message()).contains("node 'n1'").contains("shorter than 8 characters")
                        .doesNotContain("short\"").doesNotContain("'short'");
            });
        }

        @Test
        @DisplayName("refuses every unknown key of a JSON file, not only the first")
        void unknownKeysInJson() {
            String json = """
                    {"templates": {"bmc": {"agent": "fake", "secrets": {"password": {"env": "PW"}}, "colour": "red"}},
                     "topologies": [{"name": "default", "power_managment": {"levels": [["bmc"]]}}],
                     "nodes": {"n1": {"bmc": {"plug": "n1"}}},
                     "version": 2}
                    """;

            List<ConfigProblem> issues = issuesOf(() -> loader.parse(json, "fence.json", TestAgents.registry()));

            assertThat(issues).extracting(ConfigProblem::toString).containsExactlyInAnyOrder(
                    "fence.json:version: is not a known key; allowed here: templates, topologies, nodes",
                    "fence.json:templates.bmc.colour: is not a known key; allowed here: agent, parameters, secrets",
                    "fence.json:topologies[0].power_managment: is not a known key; did you mean 'power_management'?"
                            + " allowed here: name, selector, isolation, power_management, recovery, releaseAfter");
        }

        @Test
        @DisplayName("reports a YAML syntax error with its line and column")
        void yamlSyntax() {
            String yaml = """
                    templates:
                      bmc:
                        agent: fake
                       secrets: {}
                    """;

            List<ConfigProblem> issues = issuesOf(() -> loader.parse(yaml, "fence.yaml", TestAgents.registry()));

            assertThat(issues).singleElement().satisfies(issue -> {
                assertThat(issue.path()).isEmpty();
                assertThat(issue.message()).startsWith("line 4, column 4: YAML syntax error: ");
                assertThat(issue).hasToString("fence.yaml: " + issue.message());
            });
        }

        @Test
        @DisplayName("reports a JSON syntax error and a duplicate key with their lines")
        void jsonSyntaxAndDuplicates() {
            List<ConfigProblem> json = issuesOf(() -> loader.parse("{\n\"templates\": {},\n}",
                    "fence.json", TestAgents.registry()));
            List<ConfigProblem> duplicate = issuesOf(() -> loader.parse("templates: {}\ntemplates: {}\n",
                    "fence.yml", TestAgents.registry()));

            assertThat(json).singleElement().extracting(ConfigProblem::message).asString()
                    .startsWith("line 3, column 1: JSON syntax error: ");
            assertThat(duplicate).singleElement().extracting(ConfigProblem::message).asString()
                    .startsWith("line 2, column ").contains("YAML syntax error: Duplicate field 'templates'");
        }

        @Test
        @DisplayName("refuses a second YAML document instead of ignoring it")
        void secondDocument() {
            String yaml = "topologies: [{name: default}]\n---\ntopologies: []\n";

            assertThat(issuesOf(() -> loader.parse(yaml, "fence.yaml", TestAgents.registry())))
                    .singleElement().extracting(ConfigProblem::message).asString()
                    .contains("more follows the end of the document").contains("one document per file");
        }

        @Test
        @DisplayName("refuses an empty document, a list as document, and an unknown file extension")
        void notAConfiguration() {
            assertThat(issuesOf(() -> loader.parse("# nothing\n", "fence.yaml", TestAgents.registry())))
                    .singleElement().extracting(ConfigProblem::message).asString()
                    .startsWith("the document is empty");
            assertThat(issuesOf(() -> loader.parse("[1, 2]", "fence.json", TestAgents.registry())))
                    .singleElement().extracting(ConfigProblem::message).asString()
                    .contains("must be a mapping").contains("not a list");
            assertThat(issuesOf(() -> loader.parse("{}", "fence.toml", TestAgents.registry())))
                    .singleElement().extracting(ConfigProblem::message).asString()
                    .contains(".yaml, .yml or .json");
        }

        @Test
        @DisplayName("says which file cannot be read")
        void missingFile(@TempDir Path dir) {
            Path missing = dir.resolve("absent.yaml");

            FenceConfigurationException refused = catchThrowableOfType(FenceConfigurationException.class,
                    () -> loader.load(missing, TestAgents.registry()));

            assertThat(refused.issues()).singleElement().satisfies(issue -> {
                assertThat(issue.source()).isEqualTo(missing.toString());
                assertThat(issue.message()).startsWith("cannot read the file: no such file; check the path");
            });
            assertThat(refused).hasCauseInstanceOf(java.nio.file.NoSuchFileException.class);
        }
    }

    /** Each kind of problem: a description, a document with that problem, the path, the message, the count. */
    static Stream<Arguments> problems() {
        String templates = """
                templates:
                  bmc: {agent: fake, secrets: {password: {env: PW}}}
                """;
        String topologies = """
                topologies:
                  - name: default
                    power_management: {levels: [[bmc]]}
                """;
        String nodes = """
                nodes:
                  n1: {bmc: {plug: n1}}
                """;
        return Stream.of(
                Arguments.of("an unknown key in a template",
                        "templates:\n  bmc: {agent: fake, parameter: {}, secrets: {password: {env: PW}}}\n"
                                + topologies + nodes,
                        "templates.bmc.parameter", "is not a known key; did you mean 'parameters'?", 1),
                Arguments.of("an unknown key at the top",
                        templates + topologies + nodes + "node:\n  n2: {}\n",
                        "node", "is not a known key; did you mean 'nodes'?", 1),
                Arguments.of("an unknown key in a step",
                        templates + "topologies:\n  - name: default\n"
                                + "    power_management: {levels: [[bmc]], timout: 9s}\n"
                                + nodes,
                        "topologies[0].power_management.timout", "did you mean 'timeout'?", 1),
                Arguments.of("a malformed duration",
                        templates + "topologies:\n  - name: default\n    recovery: {timeout: 30 seconds}\n" + nodes,
                        "topologies[0].recovery.timeout", "'30 seconds' is not a duration; give a duration of at "
                                + "most 1d, such as", 1),
                Arguments.of("a zero timeout",
                        templates + "topologies:\n  - name: default\n    recovery: {timeout: 0s}\n" + nodes,
                        "topologies[0].recovery.timeout", "is zero; give a positive duration", 1),
                Arguments.of("an overflowing step timeout",
                        templates + "topologies:\n  - name: default\n    recovery: {timeout: P999999999999D}\n" + nodes,
                        "topologies[0].recovery.timeout", "'P999999999999D' is longer than 1d; give a duration of at "
                                + "most 1d", 1),
                Arguments.of("a step timeout over a day",
                        templates + "topologies:\n  - name: default\n    isolation: {timeout: 2d}\n" + nodes,
                        "topologies[0].isolation.timeout", "'2d' is longer than 1d", 1),
                Arguments.of("negative retries",
                        templates + "topologies:\n  - name: default\n    isolation: {retries: -1}\n" + nodes,
                        "topologies[0].isolation.retries", "is -1; give 0 or more", 1),
                Arguments.of("retries as text",
                        templates + "topologies:\n  - name: default\n    isolation: {retries: two}\n" + nodes,
                        "topologies[0].isolation.retries", "must be a whole number", 1),
                Arguments.of("an unknown agent type, listing the known ones",
                        "templates:\n  bmc: {agent: fak, secrets: {password: {env: PW}}}\n" + topologies + nodes,
                        "templates.bmc.agent", "unknown agent type 'fak'; known types: fake, switch", 1),
                Arguments.of("a template without agent",
                        "templates:\n  bmc: {secrets: {password: {env: PW}}}\n" + topologies + nodes,
                        "templates.bmc.agent", "is missing; give the agent type id, one of: fake, switch", 1),
                Arguments.of("a level naming an unknown template",
                        templates + "topologies:\n  - name: default\n    power_management: {levels: [[bmc, pdu]]}\n"
                                + nodes,
                        "topologies[0].power_management.levels[0][1]", "names the unknown template 'pdu'; known "
                                + "templates: bmc", 1),
                Arguments.of("an empty level",
                        templates + "topologies:\n  - name: default\n    power_management: {levels: [[bmc], []]}\n"
                                + nodes,
                        "topologies[0].power_management.levels[1]", "is an empty level", 1),
                Arguments.of("a level that is not a list",
                        templates + "topologies:\n  - name: default\n    power_management: {levels: [bmc]}\n" + nodes,
                        "topologies[0].power_management.levels[0]", "such as [bmc] for a level of one method", 1),
                Arguments.of("a method named twice in one level",
                        templates + "topologies:\n  - name: default\n    power_management: {levels: [[bmc, bmc]]}\n"
                                + nodes,
                        "topologies[0].power_management.levels[0][1]", "twice in one level", 1),
                Arguments.of("a default topology that is not last",
                        templates + topologies + "  - name: workers\n    selector: {role: worker}\n" + nodes,
                        "topologies[0]", "has no selector, so it matches every node and hides the topologies after "
                                + "it; move it last or give it a selector", 1),
                Arguments.of("two default topologies",
                        templates + "topologies:\n  - {name: workers, selector: {role: worker}}\n"
                                + "  - name: a\n  - name: b\n" + nodes,
                        "topologies[2]", "is a second topology without selector (the first is topologies[1])", 2),
                Arguments.of("a topology without name",
                        templates + "topologies:\n  - power_management: {levels: [[bmc]]}\n" + nodes,
                        "topologies[0].name", "is missing; give every topology a name", 1),
                Arguments.of("two topologies of one name",
                        templates + "topologies:\n  - {name: a, selector: {role: x}}\n  - name: a\n" + nodes,
                        "topologies[1].name", "'a' is the name of topologies[0] already", 1),
                Arguments.of("no topology",
                        templates + "topologies: []\n" + nodes,
                        "topologies", "is missing or empty; add at least one topology", 1),
                Arguments.of("a selector label without value",
                        templates + "topologies:\n  - name: cp\n"
                                + "    selector: {node-role.kubernetes.io/control-plane: }\n"
                                + nodes,
                        "topologies[0].selector[\"node-role.kubernetes.io/control-plane\"]",
                        "has no value; write \"\" for a label whose value is empty", 1),
                Arguments.of("a secret in plain text under parameters",
                        "templates:\n  bmc: {agent: fake, parameters: {password: pw}}\n" + topologies + nodes,
                        "templates.bmc.parameters.password", "'password' is secret: give it under secrets as "
                                + "{env: VAR}, {file: PATH} or {secret: {name: N, key: K}}, never in plain text", 2),
                Arguments.of("a secret in plain text under nodes",
                        templates + topologies + "nodes:\n  n1: {bmc: {plug: n1, password: pw}}\n",
                        "nodes.n1.bmc.password", "'password' is secret: give it as {env: VAR}, {file: PATH} or "
                                + "{secret: {name: N, key: K}}", 1),
                Arguments.of("a secret itself under secrets",
                        "templates:\n  bmc: {agent: fake, secrets: {password: pw}}\n" + topologies + nodes,
                        "templates.bmc.secrets.password", "give a reference {env: VAR}, {file: PATH} or "
                                + "{secret: {name: N, key: K}}, never the secret itself", 2),
                Arguments.of("a secret file given by a relative path",
                        "templates:\n  bmc: {agent: fake, secrets: {password: {file: bmc.pw}}}\n" + topologies + nodes,
                        "templates.bmc.secrets.password.file", "must be an absolute file path", 2),
                Arguments.of("a secret reference of two kinds",
                        "templates:\n  bmc: {agent: fake, secrets: {password: {env: PW, file: /pw}}}\n" + topologies
                                + nodes,
                        "templates.bmc.secrets.password", "must be exactly one of {env: VAR}, {file: PATH} or "
                                + "{secret: {name: N, key: K}}", 2),
                Arguments.of("a non-secret parameter under secrets",
                        "templates:\n  bmc: {agent: fake, secrets: {password: {env: PW}, username: {env: U}}}\n"
                                + topologies + nodes,
                        "templates.bmc.secrets.username", "'username' is not secret: give its value under parameters",
                        1),
                Arguments.of("a non-secret parameter given as a reference under nodes",
                        templates + topologies + "nodes:\n  n1: {bmc: {plug: n1, login: {env: U}}}\n",
                        "nodes.n1.bmc.login", "'login' is not secret: give its value in plain text", 1),
                Arguments.of("a parameter the agent does not know",
                        "templates:\n  bmc: {agent: fake, parameters: {pasword: x}, secrets: {password: {env: PW}}}\n"
                                + topologies + nodes,
                        "templates.bmc.parameters.pasword", "is not a parameter of agent 'fake'; did you mean "
                                + "'password'? its parameters are: plug, username, password, login_timeout", 1),
                Arguments.of("a node parameter the agent does not know",
                        templates + topologies + "nodes:\n  n1: {bmc: {plugg: n1}}\n",
                        "nodes.n1.bmc.plugg", "did you mean 'plug'?", 2),
                Arguments.of("a parameter value of the wrong type",
                        "templates:\n  bmc: {agent: fake, parameters: {login_timeout: soon}, secrets: {password: "
                                + "{env: PW}}}\n" + topologies + nodes,
                        "templates.bmc.parameters.login_timeout", "'soon' is not a duration", 1),
                Arguments.of("one parameter given by name and by alias",
                        "templates:\n  bmc: {agent: fake, parameters: {login: a, username: b}, secrets: {password: "
                                + "{env: PW}}}\n" + topologies + nodes,
                        "templates.bmc.parameters.username", "gives parameter 'username' a second time (as 'login' "
                                + "already)", 1),
                Arguments.of("a listed node that misses a required parameter",
                        templates + topologies + "nodes:\n  n1: {bmc: {username: root}}\n",
                        "nodes.n1.bmc", "misses the required parameter 'plug' of agent 'fake' (the outlet or machine "
                                + "to fence); give it here or under templates.bmc.parameters", 1),
                Arguments.of("a template in use that no node completes",
                        templates + topologies,
                        "templates.bmc", "misses the required parameter 'plug' (the outlet or machine to fence) of "
                                + "agent 'fake', and no node under nodes gives it, so fencing any node with it "
                                + "(topology default) would fail", 1),
                Arguments.of("a node naming an unknown template",
                        templates + topologies + "nodes:\n  n1: {bmc: {plug: n1}, bcm: {plug: n1}}\n",
                        "nodes.n1.bcm", "names the unknown template 'bcm'; did you mean 'bmc'? known templates: bmc",
                        1),
                Arguments.of("a selector label key that Kubernetes refuses",
                        templates + "topologies:\n  - {name: cp, selector: {\"-role\": x}}\n" + topologies.substring(
                                "topologies:\n".length()) + nodes,
                        "topologies[0].selector.-role", "'-role' is not a label key: give an optional DNS prefix", 1),
                Arguments.of("a selector label value that Kubernetes refuses",
                        templates + "topologies:\n  - {name: cp, selector: {role: \"control plane\"}}\n"
                                + topologies.substring("topologies:\n".length()) + nodes,
                        "topologies[0].selector.role", "'control plane' is not a label value: give up to 63", 1));
    }
}
