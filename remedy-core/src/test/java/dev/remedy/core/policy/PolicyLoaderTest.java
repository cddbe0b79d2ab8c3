package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.storm.RateLimit;
import dev.remedy.core.storm.StormSettings;
import dev.remedy.core.storm.Threshold;
import dev.remedy.spi.config.ConfigProblem;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("PolicyLoader, remedy's own format")
class PolicyLoaderTest {

    private final PolicyLoader loader = new PolicyLoader();

    static Path fixture(String name) {
        try {
            return Path.of(Objects.requireNonNull(PolicyLoaderTest.class.getResource(name), name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<ConfigProblem> issuesOf(Runnable load) {
        return catchThrowableOfType(PolicyConfigurationException.class, load::run).issues();
    }

    List<ConfigProblem> issues(String yaml) {
        return issuesOf(() -> loader.parse(yaml, "p.yaml"));
    }

    /** A valid one-policy document with {@code extra} lines added to the policy (indented 4). */
    static String policyWith(String escalation, String extra) {
        return """
                policies:
                  - name: workers
                    unhealthyConditions: [{type: Ready, status: "False", duration: 5m}]
                    escalation:
                """ + escalation.indent(6) + extra.indent(4);
    }

    static final String FENCE = "- {name: fence, fence: {}, timeout: 10m}";

    @Nested
    @DisplayName("with the valid fixture")
    class Valid {

        private final PolicySet set = loader.load(fixture("policies.yaml"));

        @Test
        @DisplayName("lists its policies in document order, with the file as source")
        void names() {
            assertThat(set.names()).containsExactly("workers", "control-plane");
            assertThat(set.source()).endsWith("policies.yaml");
        }

        @Test
        @DisplayName("reads a worker policy's selector, OR'ed conditions, exclusion label, healthy delay and pauses")
        void workers() {
            Policy workers = set.policy("workers").orElseThrow();

            assertThat(workers.role()).isEqualTo(NodeRole.WORKER);
            assertThat(workers.selector()).isEqualTo(new NodeSelector(Map.of("node-role.kubernetes.io/worker", "")));
            assertThat(workers.conditions()).containsExactly(
                    new UnhealthyCondition("Ready", "False", Duration.ofMinutes(5)),
                    new UnhealthyCondition("Ready", "Unknown", Duration.ofMinutes(5)));
            assertThat(workers.exclusionLabel()).isEqualTo("example.com/no-remediation");
            assertThat(workers.healthyDelay()).isEqualTo(Duration.ofSeconds(60));
            assertThat(workers.pauseRequests()).containsExactly("upgrade-team");
            assertThat(workers.paused()).isTrue();
        }

        @Test
        @DisplayName("reads the escalation ladder in order: a fence, then an external remediation by template reference")
        void ladder() {
            List<Remedy> ladder = set.policy("workers").orElseThrow().escalation();

            assertThat(ladder).hasSize(2);
            assertThat(ladder.get(0)).isEqualTo(new Remedy.Fence("reboot-by-bmc", Duration.ofMinutes(10)));
            assertThat(ladder.get(1)).isInstanceOfSatisfying(Remedy.External.class, snr -> {
                assertThat(snr.name()).isEqualTo("snr");
                assertThat(snr.timeout()).isEqualTo(Duration.ofMinutes(15));
                assertThat(snr.source()).isEqualTo(new Remedy.External.TemplateRef(
                        "self-node-remediation.medik8s.io/v1alpha1", "SelfNodeRemediationTemplate",
                        "self-node-remediation-out-of-service-taint-template", Optional.empty()));
            });
        }

        @Test
        @DisplayName("reads the storm section into StormSettings with the builder's names")
        void storm() {
            StormSettings storm = set.policy("workers").orElseThrow().storm();

            assertThat(storm.maxUnhealthy()).contains(Threshold.percent(40));
            assertThat(storm.minHealthy()).isEmpty();
            assertThat(storm.stormCooldown()).isEqualTo(Duration.ofMinutes(10));
            assertThat(storm.maxConcurrent()).isEqualTo(3);
            assertThat(storm.fencesPerWindow()).contains(RateLimit.of(4, Duration.ofMinutes(30)));
            assertThat(storm.podDeletionsPerWindow()).isEmpty();
            assertThat(storm.failureDomainLabel()).contains("topology.kubernetes.io/rack");
            assertThat(storm.maxDomainShare()).isEqualTo(0.6);
            assertThat(storm.maxDisconnectedShare()).isEqualTo(0.5);
            assertThat(storm.quietPeriod()).isEqualTo(Duration.ofMinutes(2));
            assertThat(storm.raceDelayBase()).isEqualTo(Duration.ofSeconds(1));
            assertThat(storm.raceDelayRandomMax()).isEqualTo(Duration.ofSeconds(5));
            assertThat(storm.priorityDelay()).isEqualTo(Duration.ofSeconds(10));
        }

        @Test
        @DisplayName("gives a policy without optional keys every selector, the default exclusion label, 0 delay and "
                + "default storm settings")
        void defaults() {
            Policy controlPlane = set.policy("control-plane").orElseThrow();

            assertThat(controlPlane.role()).isEqualTo(NodeRole.CONTROL_PLANE);
            assertThat(controlPlane.selector().matchesAll()).isTrue();
            assertThat(controlPlane.exclusionLabel()).isEqualTo(Policy.DEFAULT_EXCLUSION_LABEL);
            assertThat(controlPlane.healthyDelay()).isZero();
            assertThat(controlPlane.pauseRequests()).isEmpty();
            assertThat(controlPlane.storm()).isEqualTo(StormSettings.ofDefaults());
            assertThat(controlPlane.escalation()).containsExactly(new Remedy.Fence("fence", Duration.ofSeconds(60)));
        }

        @Test
        @DisplayName("gives a node the first policy that covers it, by role and selector")
        void policyFor() {
            NodeStatus worker = node("w-1", Map.of("node-role.kubernetes.io/worker", ""));
            NodeStatus controlPlane = node("cp-1", Map.of(NodeStatus.CONTROL_PLANE_LABEL, ""));
            NodeStatus excluded = node("w-2", Map.of("node-role.kubernetes.io/worker", "",
                    "example.com/no-remediation", "true"));

            assertThat(set.policyFor(worker).map(Policy::name)).contains("workers");
            assertThat(set.policyFor(controlPlane).map(Policy::name)).contains("control-plane");
            assertThat(set.policyFor(excluded)).isEmpty();
        }

        @Test
        @DisplayName("reads the JSON equivalent into equal policies")
        void json() {
            PolicySet fromJson = loader.load(fixture("policies.json"));

            assertThat(fromJson.policies()).isEqualTo(set.policies());
            assertThat(fromJson.source()).endsWith("policies.json");
        }
    }

    static NodeStatus node(String name, Map<String, String> labels) {
        return new NodeStatus(name, labels, List.of(new NodeCondition("Ready", "True", Instant.EPOCH)));
    }

    @Nested
    @DisplayName("with the broken fixture")
    class Broken {

        @Test
        @DisplayName("lists every problem at once, each with the file and its path")
        void everyProblem() {
            PolicyConfigurationException refused = catchThrowableOfType(PolicyConfigurationException.class,
                    () -> loader.load(fixture("broken-policies.yaml")));

            assertThat(refused.issues()).extracting(ConfigProblem::path).containsExactly(
                    "policies[0].unhealthyCondition",
                    "policies[0].role",
                    "policies[0].unhealthyConditions",
                    "policies[0].escalation[0].timeout",
                    "policies[0].escalation[1]",
                    "policies[0].escalation[2]",
                    "policies[0].healthyDelay",
                    "policies[1].name",
                    "policies[1].selector[\"node-role.kubernetes.io/control-plane\"]",
                    "policies[1].unhealthyConditions[1].status",
                    "policies[1].escalation",
                    "policies[1].storm.maxConcurent",
                    "policies[1].storm.maxUnhealthy");
            assertThat(refused.issues()).allSatisfy(issue ->
                    assertThat(issue.source()).endsWith("broken-policies.yaml"));
            assertThat(refused.getMessage()).startsWith("invalid policies (13 problems):")
                    .contains("broken-policies.yaml:policies[0].healthyDelay: 'soon' is not a duration");
        }

        @Test
        @DisplayName("suggests the key that was meant")
        void didYouMean() {
            List<ConfigProblem> issues = issuesOf(() -> loader.load(fixture("broken-policies.yaml")));

            assertThat(issues).filteredOn(i -> i.path().equals("policies[0].unhealthyCondition")).singleElement()
                    .extracting(ConfigProblem::message).asString()
                    .contains("did you mean 'unhealthyConditions'?");
            assertThat(issues).filteredOn(i -> i.path().equals("policies[1].storm.maxConcurent")).singleElement()
                    .extracting(ConfigProblem::message).asString().contains("did you mean 'maxConcurrent'?");
            assertThat(issues).filteredOn(i -> i.path().equals("policies[0].role")).singleElement()
                    .extracting(ConfigProblem::message).asString()
                    .contains("never both").contains("did you mean 'worker'?");
        }
    }

    @DisplayName("refuses each kind of problem with its path and what to do")
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        an unknown key in a remedy       | - {name: f, fence: {}, timeout: 10m, timout: 1m}           | ''                          | policies[0].escalation[0].timout      | did you mean 'timeout'?
        an unknown key in fence          | - {name: f, fence: {agent: ipmi}, timeout: 10m}             | ''                          | policies[0].escalation[0].fence.agent | is not a known key
        a missing timeout                | - {name: f, fence: {}}                                      | ''                          | policies[0].escalation[0].timeout     | is missing
        a timeout under 60s              | - {name: f, fence: {}, timeout: 59s}                        | ''                          | policies[0].escalation[0].timeout     | 59s, below the least escalation timeout of 60s
        a malformed timeout              | - {name: f, fence: {}, timeout: 10 minutes}                 | ''                          | policies[0].escalation[0].timeout     | '10 minutes' is not a duration
        neither fence nor external       | - {name: f, timeout: 10m}                                   | ''                          | policies[0].escalation[0]             | has neither fence nor external
        both fence and external          | - {name: f, fence: {}, external: {apiVersion: v1, kind: K}, timeout: 10m} | ''            | policies[0].escalation[0]             | has both fence and external
        an external without kind         | - {name: x, external: {apiVersion: v1}, timeout: 10m}       | ''                          | policies[0].escalation[0].external.kind | is missing
        a reference to a non-template    | - {name: x, external: {apiVersion: a.io/v1, kind: Reboot, name: r}, timeout: 10m} | ''    | policies[0].escalation[0].external.kind | 'Reboot' does not end in Template
        a reference without apiVersion   | - {name: x, external: {kind: RebootTemplate, name: r}, timeout: 10m} | ''                 | policies[0].escalation[0].external.apiVersion | is missing
        a reference to the core group    | - {name: x, external: {apiVersion: v1, kind: RebootTemplate, name: r}, timeout: 10m} | '' | policies[0].escalation[0].external.apiVersion | 'v1' is not group/version
        a reference with a bad name      | - {name: x, external: {apiVersion: a.io/v1, kind: RebootTemplate, name: My_T}, timeout: 10m} | '' | policies[0].escalation[0].external.name | 'My_T' is not a Kubernetes object name
        a reference with a bad namespace | - {name: x, external: {apiVersion: a.io/v1, kind: RebootTemplate, name: t, namespace: a.b}, timeout: 10m} | '' | policies[0].escalation[0].external.namespace | 'a.b' is not a namespace name
        a namespace without name         | - {name: x, external: {apiVersion: a.io/v1, kind: RebootTemplate, namespace: ns}, timeout: 10m} | '' | policies[0].escalation[0].external.name | is missing
        a reference with a spec          | - {name: x, external: {apiVersion: a.io/v1, kind: RebootTemplate, name: t, spec: {}}, timeout: 10m} | '' | policies[0].escalation[0].external.spec | leave spec out to instantiate the template
        an inline template kind          | - {name: x, external: {apiVersion: a.io/v1, kind: RebootTemplate, spec: {}}, timeout: 10m} | '' | policies[0].escalation[0].external.kind | give name (and namespace) to instantiate the template
        an unknown key in external       | - {name: x, external: {apiVersion: a.io/v1, kind: RebootTemplate, nme: t}, timeout: 10m} | '' | policies[0].escalation[0].external.nme | did you mean 'name'?
        two remedies of one name         | [{name: f, fence: {}, timeout: 10m}, {name: f, fence: {}, timeout: 20m}] | ''             | policies[0].escalation[1].name        | give each remedy of a ladder its own name
        a malformed healthy delay        | - {name: f, fence: {}, timeout: 10m}                        | 'healthyDelay: -5s'         | policies[0].healthyDelay              | is not a duration
        a label key that is not one      | - {name: f, fence: {}, timeout: 10m}                        | 'exclusionLabel: -bad'      | policies[0].exclusionLabel            | is not a label key
        a selector value that is a list  | - {name: f, fence: {}, timeout: 10m}                        | 'selector: {zone: [a]}'     | policies[0].selector.zone             | must be a label value
        a role of both                   | - {name: f, fence: {}, timeout: 10m}                        | 'role: [worker, control-plane]' | policies[0].role                  | never both
        a control-plane selector         | - {name: f, fence: {}, timeout: 10m}                        | 'selector: {node-role.kubernetes.io/master: ""}' | policies[0].selector["node-role.kubernetes.io/master"] | set role: control-plane
        pause requests that are text     | - {name: f, fence: {}, timeout: 10m}                        | 'pauseRequests: me'         | policies[0].pauseRequests             | must be a list
        storm with both thresholds       | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {minHealthy: 3, maxUnhealthy: 2}' | policies[0].storm       | set one of them
        a storm rate without window      | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {fencesPerWindow: {count: 3}}' | policies[0].storm.fencesPerWindow.window | is missing
        a storm share above 1            | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {maxDomainShare: 1.5}' | policies[0].storm.maxDomainShare   | at most 1
        an unknown share basis           | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {domainShareBasis: of-domain-node}' | policies[0].storm.domainShareBasis | did you mean 'of-domain-nodes'?
        a race delay over an hour        | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {raceDelay: {randomMax: 2h}}' | policies[0].storm.raceDelay.randomMax | longer than 1h; give a duration of at most 1h
        a selector key that is not one   | - {name: f, fence: {}, timeout: 10m}                        | 'selector: {"-zone": a}'    | policies[0].selector.-zone            | '-zone' is not a label key
        a selector value that is not one | - {name: f, fence: {}, timeout: 10m}                        | 'selector: {zone: "a b"}'   | policies[0].selector.zone             | 'a b' is not a label value
        an overflowing timeout           | - {name: f, fence: {}, timeout: P999999999999D}             | ''                          | policies[0].escalation[0].timeout     | longer than 7d; give a duration of at most 7d
        an overflowing healthy delay     | - {name: f, fence: {}, timeout: 10m}                        | 'healthyDelay: PT2562047788015215H' | policies[0].healthyDelay      | longer than 7d
        an overflowing storm cooldown    | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {stormCooldown: P999999999999D}' | policies[0].storm.stormCooldown | longer than 7d
        an overflowing quiet period      | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {quietPeriod: 99999999999d}' | policies[0].storm.quietPeriod | longer than 7d
        an overflowing node cooldown     | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {nodeCooldown: PT2562047788015215H}' | policies[0].storm.nodeCooldown | longer than 7d
        an overflowing rate window       | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {fencesPerWindow: {count: 3, window: PT2562047788015215H}}' | policies[0].storm.fencesPerWindow.window | longer than 7d
        an overflowing race delay        | - {name: f, fence: {}, timeout: 10m}                        | 'storm: {raceDelay: {base: P999999999999D}}' | policies[0].storm.raceDelay.base | longer than 1h
        """)
    void eachProblem(String what, String escalation, String extra, String path, String message) {
        List<ConfigProblem> issues = issues(policyWith(escalation, extra));

        assertThat(issues).filteredOn(i -> i.path().equals(path)).singleElement()
                .satisfies(issue -> {
                    assertThat(issue.source()).isEqualTo("p.yaml");
                    assertThat(issue.message()).contains(message);
                });
    }

    @Test
    @DisplayName("reads an external template reference with its namespace, and an inline object as it is")
    void externalForms() {
        Policy policy = loader.parse(policyWith("""
                - {name: metal3, external: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1,
                   kind: Metal3RemediationTemplate, name: m3-remediation, namespace: capi-system}, timeout: 30m}
                - {name: reboot, external: {apiVersion: remediation.example.com/v1, kind: Reboot,
                   spec: {mode: hard}}, timeout: 10m}
                """, ""), "p.yaml").policies().get(0);

        assertThat(policy.escalation()).extracting(r -> ((Remedy.External) r).source()).containsExactly(
                new Remedy.External.TemplateRef("infrastructure.cluster.x-k8s.io/v1beta1", "Metal3RemediationTemplate",
                        "m3-remediation", Optional.of("capi-system")),
                new Remedy.External.Inline(Map.of("apiVersion", "remediation.example.com/v1", "kind", "Reboot",
                        "spec", Map.of("mode", "hard"))));
    }

    @DisplayName("refuses an unhealthy condition's duration under 30s, which fences at the first blip, or over 7d")
    @ParameterizedTest(name = "duration: {0}")
    @CsvSource(delimiter = '|', textBlock = """
        0s                  | is 0s, under the least of 30s
        29s                 | is 29s, under the least of 30s
        PT2562047788015215H | 'PT2562047788015215H' is longer than 7d
        P999999999999D      | 'P999999999999D' is longer than 7d
        """)
    void conditionDuration(String duration, String message) {
        List<ConfigProblem> issues = issues("policies:\n  - name: w\n    unhealthyConditions: [{type: Ready, status: "
                + "\"False\", duration: " + duration + "}]\n    escalation:\n      - {name: fence, fence: {}, timeout: 10m}\n");

        assertThat(issues).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("policies[0].unhealthyConditions[0].duration");
            assertThat(issue.message()).contains(message);
        });
    }

    @Test
    @DisplayName("says why a condition must hold 30s: a node is briefly NotReady at every kubelet restart")
    void conditionMinimumSaysWhy() {
        List<ConfigProblem> issues = issues(policyWith(FENCE, "").replace("duration: 5m", "duration: 0s"));

        assertThat(issues).singleElement().extracting(ConfigProblem::message).asString()
                .contains("kubelet restart").contains("healthy node").contains("give 30s or more");
    }

    @Test
    @DisplayName("accepts a condition that holds exactly 30s, and one of 7d")
    void conditionBounds() {
        assertThat(loader.parse(policyWith(FENCE, "").replace("duration: 5m", "duration: 30s"), "p.yaml")
                .policies()).hasSize(1);
        assertThat(loader.parse(policyWith(FENCE, "").replace("duration: 5m", "duration: 7d"), "p.yaml")
                .policies()).hasSize(1);
    }

    @Test
    @DisplayName("accepts the valid base document of the problem table, so each problem is the one added")
    void baseIsValid() {
        PolicySet set = loader.parse(policyWith(FENCE, ""), "p.yaml");

        assertThat(set.policies()).hasSize(1);
        assertThat(set.policies().get(0).escalation()).containsExactly(new Remedy.Fence("fence",
                Duration.ofMinutes(10)));
    }

    @Test
    @DisplayName("refuses missing and empty lists: policies, unhealthy conditions and escalation")
    void missingAndEmpty() {
        assertThat(issues("policies: []")).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("policies");
            assertThat(issue.message()).startsWith("is empty; give at least one policy");
        });
        assertThat(issues("policies: [{name: p, unhealthyConditions: [], escalation: []}]"))
                .extracting(ConfigProblem::path)
                .containsExactly("policies[0].unhealthyConditions", "policies[0].escalation");
        assertThat(issues("policies: [{unhealthyConditions: [{type: Ready}], escalation: [" + FENCE.substring(2)
                + "]}]")).extracting(ConfigProblem::path).containsExactly("policies[0].name",
                "policies[0].unhealthyConditions[0].status", "policies[0].unhealthyConditions[0].duration");
    }

    @Test
    @DisplayName("refuses a condition given twice and a status that Kubernetes does not write")
    void conditions() {
        List<ConfigProblem> issues = issues("""
                policies:
                  - name: p
                    unhealthyConditions:
                      - {type: Ready, status: "False", duration: 5m}
                      - {type: Ready, status: false, duration: 1m}
                      - {type: Ready, status: "false", duration: 1m}
                    escalation: [{name: f, fence: {}, timeout: 10m}]
                """);

        assertThat(issues).extracting(ConfigProblem::path).containsExactly(
                "policies[0].unhealthyConditions[1]", "policies[0].unhealthyConditions[2].status");
        assertThat(issues.get(0).message()).contains("repeats Ready=False of policies[0].unhealthyConditions[0]");
        assertThat(issues.get(1).message()).contains("did you mean 'False'?");
    }

    @Test
    @DisplayName("refuses an unknown apiVersion and a wrong kind, naming the known ones")
    void apiVersion() {
        assertThat(issues("apiVersion: remedy.dev/v1\npolicies: []")).singleElement().satisfies(issue -> {
            assertThat(issue.path()).isEqualTo("apiVersion");
            assertThat(issue.message()).contains("'remedy.dev/v1', not a known format")
                    .contains(PolicyLoader.API_VERSION);
        });
        assertThat(issues("kind: Policy\n" + policyWith(FENCE, ""))).extracting(ConfigProblem::path)
                .containsExactly("kind");
    }

    @Test
    @DisplayName("refuses an empty document and one that is not a mapping")
    void emptyDocument() {
        assertThat(issues("")).singleElement().extracting(ConfigProblem::message).asString()
                .startsWith("the document is empty");
        assertThat(issues("- a\n- b")).singleElement().extracting(ConfigProblem::message).asString()
                .contains("not a list");
    }

    @Nested
    @DisplayName("with a file that cannot be parsed")
    class Syntax {

        @Test
        @DisplayName("reports a YAML syntax error with its line and column")
        void yaml() {
            List<ConfigProblem> issues = issues("policies:\n  - name: p\n    escalation: [a, b\n  - name: q\n");

            assertThat(issues).singleElement().satisfies(issue -> {
                assertThat(issue.path()).isEmpty();
                assertThat(issue.message()).containsPattern("^line \\d+, column \\d+: YAML syntax error: ");
                assertThat(issue.toString()).startsWith("p.yaml: line ");
            });
        }

        @Test
        @DisplayName("reports a JSON syntax error and a duplicate key with their lines")
        void jsonAndDuplicates() {
            assertThat(issuesOf(() -> loader.parse("{\"policies\": [\n}", "p.json"))).singleElement()
                    .extracting(ConfigProblem::message).asString()
                    .startsWith("line 2, column 1: JSON syntax error: ");
            assertThat(issues("policies: []\npolicies: []\n")).singleElement()
                    .extracting(ConfigProblem::message).asString()
                    .startsWith("line 2, column ").contains("Duplicate field 'policies'");
        }

        @Test
        @DisplayName("refuses a file name without a known extension, and a file that does not exist")
        void files(@TempDir Path dir) {
            assertThat(issuesOf(() -> loader.parse("policies: []", "policies.txt"))).singleElement()
                    .extracting(ConfigProblem::message).asString().contains("name the file .yaml, .yml or .json");
            PolicyConfigurationException missing = catchThrowableOfType(PolicyConfigurationException.class,
                    () -> loader.load(dir.resolve("absent.yaml")));
            assertThat(missing.issues()).singleElement().extracting(ConfigProblem::message).asString()
                    .startsWith("cannot read the file: no such file; check the path");
            assertThat(missing).hasCauseInstanceOf(java.nio.file.NoSuchFileException.class);
        }
    }

    @Test
    @DisplayName("a policy set refuses two policies of one name")
    void policySetNames() {
        Policy one = loader.parse(policyWith(FENCE, ""), "p.yaml").policies().get(0);

        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> new PolicySet("x.yaml", List.of(one, one)))).hasMessageContaining("'workers' is used twice");
        assertThat(new PolicySet("x.yaml", List.of(one)).policy("other")).isEqualTo(Optional.empty());
    }
}
