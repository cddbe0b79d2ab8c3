package dev.remedy.core.policy;

import static dev.remedy.core.policy.PolicyLoaderTest.fixture;
import static dev.remedy.core.policy.PolicyLoaderTest.issuesOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.spi.config.ConfigProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("PolicyLoader, the Node remedy Configuration")
class NodeRemedyFormatTest {

    private static final String DESIGN_PERIOD = "nodeConditionPeriod: 5s";

    private final PolicyLoader loader = new PolicyLoader();

    /**
     * The design's example with its Ready period raised from 5s, which fences at the first blip and is refused, to
     * 30s, the least remedy accepts.
     */
    static String example() {
        try {
            String asWritten = Files.readString(fixture("node-remedy-example.yaml"));
            assertThat(asWritten).contains(DESIGN_PERIOD);
            return asWritten.replace(DESIGN_PERIOD, "nodeConditionPeriod: 30s");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    List<ConfigProblem> issues(String yaml) {
        return issuesOf(() -> loader.parse(yaml, "node-remedy.yaml"));
    }

    /** The example with {@code from} replaced by {@code to} (which must occur). */
    static String variant(String from, String to) {
        String example = example();
        assertThat(example).contains(from);
        return example.replace(from, to);
    }

    @Nested
    @DisplayName("with the design's example")
    class Example {

        private final PolicySet set = loader.parse(example(), "node-remedy-example.yaml");

        @Test
        @DisplayName("refuses the example as written: its 5s Ready period would fence a node at the first blip")
        void asWritten() {
            List<ConfigProblem> issues = issuesOf(() -> loader.load(fixture("node-remedy-example.yaml")));

            assertThat(issues).singleElement().satisfies(issue -> {
                assertThat(issue.path()).isEqualTo("thresholdConfigs[0].nodeConditionPeriod");
                assertThat(issue.message()).startsWith("is 5s, under the least of 30s").contains("kubelet restart");
            });
        }

        @Test
        @DisplayName("makes one worker policy per threshold, named by its condition, selecting type=compute")
        void policies() {
            assertThat(set.names()).containsExactly("node-remedy/Ready=False", "node-remedy/DiskPressure=True");
            assertThat(set.policies()).allSatisfy(policy -> {
                assertThat(policy.role()).isEqualTo(NodeRole.WORKER);
                assertThat(policy.selector()).isEqualTo(new NodeSelector(Map.of("type", "compute")));
                assertThat(policy.exclusionLabel()).isEqualTo(Policy.DEFAULT_EXCLUSION_LABEL);
                assertThat(policy.healthyDelay()).isEqualTo(PolicyLoader.DEFAULT_HEALTHY_DELAY);
                assertThat(policy.storm()).isEqualTo(StormSettings.ofDefaults());
            });
        }

        @Test
        @DisplayName("reads the YAML booleans as condition statuses, with the condition periods")
        void conditions() {
            assertThat(set.policy("node-remedy/Ready=False").orElseThrow().conditions())
                    .containsExactly(new UnhealthyCondition("Ready", "False", Duration.ofSeconds(30)));
            assertThat(set.policy("node-remedy/DiskPressure=True").orElseThrow().conditions())
                    .containsExactly(new UnhealthyCondition("DiskPressure", "True", Duration.ofMinutes(10)));
        }

        @Test
        @DisplayName("turns remedy1 and remedy2 into a ladder of jobs: period is the timeout, 5m when absent")
        void readyLadder() {
            List<Remedy> ladder = set.policy("node-remedy/Ready=False").orElseThrow().escalation();

            assertThat(ladder).extracting(Remedy::name).containsExactly("repair", "terminate");
            assertThat(ladder).extracting(Remedy::timeout)
                    .containsExactly(Duration.ofMinutes(3), PolicyLoader.DEFAULT_NODE_REMEDY_PERIOD);
            assertThat(ladder).allSatisfy(remedy -> assertThat(remedy).isInstanceOf(Remedy.External.class));
        }

        @Test
        @DisplayName("makes each job from its podTemplate, and marks clean-resourece (sic) with the release annotation")
        void jobs() {
            List<Remedy> ladder = set.policy("node-remedy/Ready=False").orElseThrow().escalation();
            Map<String, Object> repair = inline(ladder.get(0));
            Map<String, Object> terminate = inline(ladder.get(1));

            assertThat(repair).containsEntry("apiVersion", "batch/v1").containsEntry("kind", "Job")
                    .doesNotContainKey("metadata");
            assertThat(repair.get("spec")).isEqualTo(Map.of("template", Map.of("spec", Map.of(
                    "containers", List.of(Map.of("name", "repair", "image", "IMAGE:VERSION",
                            "command", List.of("binary", "clean node command"), "env", List.of("secret-key"),
                            "configmaps", List.of("fence-method-config"))),
                    "restartPolicy", "Never"))));
            assertThat(terminate).containsEntry("metadata",
                    Map.of("annotations", Map.of(PolicyLoader.RELEASE_WORKLOADS_ANNOTATION, "true")));
        }

        @Test
        @DisplayName("makes storage-fence, which remedyConfigs does not define, the built-in fence remedy")
        void builtInFence() {
            assertThat(set.policy("node-remedy/DiskPressure=True").orElseThrow().escalation())
                    .containsExactly(new Remedy.Fence("storage-fence", PolicyLoader.DEFAULT_NODE_REMEDY_PERIOD));
        }

        @Test
        @DisplayName("covers type=compute worker nodes only")
        void covers() {
            NodeStatus compute = PolicyLoaderTest.node("c-1", Map.of("type", "compute"));
            NodeStatus storage = PolicyLoaderTest.node("s-1", Map.of("type", "storage-optimized"));
            NodeStatus controlPlane = PolicyLoaderTest.node("cp-1", Map.of("type", "compute",
                    NodeStatus.CONTROL_PLANE_LABEL, ""));

            assertThat(set.policyFor(compute).map(Policy::name)).contains("node-remedy/Ready=False");
            assertThat(set.policyFor(storage)).isEmpty();
            assertThat(set.policyFor(controlPlane)).isEmpty();
        }
    }

    @Test
    @DisplayName("accepts clean-resource spelt right, single mappings for a rung, and a multi-label selector")
    void variants() {
        PolicySet set = loader.parse(variant("nodeSelector: type=compute", "nodeSelector: type=compute, zone==a")
                .replace("   - clean-resourece: true\n  recovery", "   - clean-resource: true\n  recovery")
                .replace("remedy1: \n   - name: repair   \n   - period: 3m", "remedy1: {name: repair, period: 3m}"),
                "node-remedy.yaml");

        assertThat(set.policies()).allSatisfy(policy -> assertThat(policy.selector())
                .isEqualTo(new NodeSelector(Map.of("type", "compute", "zone", "a"))));
        assertThat(set.policy("node-remedy/Ready=False").orElseThrow().escalation().get(0).timeout())
                .isEqualTo(Duration.ofMinutes(3));
    }

    @DisplayName("refuses a variant of the example with its path and what to do")
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        an unknown key                   | '  nodeConditionPeriod: 30s'     | '  nodeConditionPeriod: 30s\\n  nodeConditionPeriode: 5s' | thresholdConfigs[0].nodeConditionPeriode | did you mean 'nodeConditionPeriod'?
        an undefined remedy              | '   - name: terminate'           | '   - name: terminat'          | thresholdConfigs[0].remedy2[0].name   | did you mean 'terminate'?
        a recovery job                   | '   - name: recovery\\n- nodeConditionType' | '   - name: repair\\n- nodeConditionType' | thresholdConfigs[0].recovery[0].name | a recovery job is not supported
        a gap in the ladder              | '  remedy2: '                    | '  remedy3: '                  | thresholdConfigs[0].remedy3           | comes without remedy2
        no remedy1                       | '  remedy1:\\n   - name: storage-fence\\n   - clean-resourece: true\\n' | '' | thresholdConfigs[1].remedy1 | is missing
        a period under 60s               | '   - period: 3m'                | '   - period: 30s'             | thresholdConfigs[0].remedy1[1].period | below the least escalation timeout of 60s
        clean-resource twice             | '   - clean-resourece: true\\n  recovery:\\n   - name: recovery\\n- nodeConditionType' | '   - clean-resourece: true\\n   - clean-resource: true\\n  recovery:\\n   - name: recovery\\n- nodeConditionType' | thresholdConfigs[0].remedy2[2].clean-resource | a second time
        a built-in fence kept dirty      | '   - name: storage-fence\\n   - clean-resourece: true' | '   - name: storage-fence\\n   - clean-resourece: false' | thresholdConfigs[1].remedy1[1].clean-resourece | always releases the node's workloads
        a status that is not one         | 'nodeConditionStatus: true'      | 'nodeConditionStatus: yes please' | thresholdConfigs[1].nodeConditionStatus | not a condition status
        a set-based selector             | 'nodeSelector: type=compute'     | 'nodeSelector: type in (compute)' | nodeSelector                      | only equality requirements are supported
        a control-plane selector         | 'nodeSelector: type=compute'     | 'nodeSelector: node-role.kubernetes.io/control-plane=' | nodeSelector | role: control-plane
        the same condition twice         | 'nodeConditionType: DiskPressure\\n  nodeConditionStatus: true' | 'nodeConditionType: Ready\\n  nodeConditionStatus: false' | thresholdConfigs[1].nodeConditionType | tracks Ready=False a second time
        a remedyConfig named as a built-in | '- name: terminate\\n'         | '- name: fence\\n'             | remedyConfigs[1].name                 | is a built-in remedy
        a remedyConfig without podTemplate | '- name: repair\\n  podTemplate:' | '- name: repair\\n  podTemplat:' | remedyConfigs[0].podTemplat         | did you mean 'podTemplate'?
        a wrong kind                     | 'kind: Configuration'            | 'kind: Config'                 | kind                                  | has kind: Configuration
        a selector key that is not one   | 'nodeSelector: type=compute'     | 'nodeSelector: -type=compute'  | nodeSelector                          | '-type' is not a label key
        a selector value that is not one | 'nodeSelector: type=compute'     | 'nodeSelector: type=-compute'  | nodeSelector                          | '-compute' is not a label value
        a zero condition period          | '  nodeConditionPeriod: 10m'     | '  nodeConditionPeriod: 0s'    | thresholdConfigs[1].nodeConditionPeriod | under the least of 30s
        an overflowing condition period  | '  nodeConditionPeriod: 10m'     | '  nodeConditionPeriod: PT2562047788015215H' | thresholdConfigs[1].nodeConditionPeriod | longer than 7d
        an overflowing rung period       | '   - period: 3m'                | '   - period: P999999999999D'  | thresholdConfigs[0].remedy1[1].period | longer than 7d
        """)
    void refused(String what, String from, String to, String path, String message) {
        List<ConfigProblem> issues = issues(variant(from.replace("\\n", "\n"), to.replace("\\n", "\n")));

        assertThat(issues).filteredOn(i -> i.path().equals(path)).singleElement()
                .satisfies(issue -> assertThat(issue.message()).contains(message));
    }

    @Test
    @DisplayName("lists an unknown key and an undefined remedy together, each with its path")
    void severalProblems() {
        List<ConfigProblem> issues = issues(variant("   - name: storage-fence", "   - name: storage-fense")
                .replace("    restartPolicy: Never\n# the terminate", "    restartPolicy: Never\n  schedule: daily\n"
                        + "# the terminate"));

        assertThat(issues).extracting(ConfigProblem::path).containsExactly(
                "thresholdConfigs[1].remedy1[0].name", "remedyConfigs[0].schedule");
        assertThat(issues.get(0).message()).contains("'storage-fense'").contains("did you mean 'storage-fence'?")
                .contains("define it under remedyConfigs");
        assertThat(issues.get(1).toString()).startsWith("node-remedy.yaml:remedyConfigs[0].schedule: is not a known key");
    }

    @Test
    @DisplayName("asks for the apiVersion when a Node remedy document leaves it out")
    void missingApiVersion() {
        assertThat(issues(variant("apiVersion: node-remedy/v1alpha\n", ""))).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("apiVersion");
            assertThat(issue.message()).contains("add apiVersion: node-remedy/v1alpha and kind: Configuration");
        });
    }

    /** The inline object of an external remedy. */
    static Map<String, Object> inline(Remedy remedy) {
        return ((Remedy.External.Inline) ((Remedy.External) remedy).source()).object();
    }
}
