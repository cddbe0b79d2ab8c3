package dev.remedy.fence.kube.external;

import static dev.remedy.fence.kube.external.ExternalFixtures.JOB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner.Cancellation;
import dev.remedy.core.policy.RemedyRunner.Progress;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.fence.kube.external.internal.JobNames;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Node remedy design's remedy pods as Jobs, from a Node remedy Configuration read by {@link PolicyLoader}, on
 * fabric8's mock API server in CRUD mode.
 *
 * <p>Mock server gaps: no Job controller runs, so the tests write a Job's status as it would; no garbage collector
 * runs, so that a deleted Job's pods go is shown by the propagation policy of the delete request.
 */
@EnableKubernetesMockClient(crud = true)
class RemedyJobsTest {

    private static final String NS = "remedy";
    private static final String CONFIGURATION = """
            apiVersion: node-remedy/v1alpha
            kind: Configuration
            thresholdConfigs:
            - nodeConditionType: Ready
              nodeConditionStatus: false
              nodeConditionPeriod: 60s
              remedy1:
               - name: repair
               - period: 3m
               - clean-resource: true
            remedyConfigs:
            - name: repair
              podTemplate:
               metadata:
                labels: {app: repair}
               spec:
                initContainers:
                - name: check
                  image: example.com/check:1
                containers:
                - name: repair
                  image: example.com/repair:1
                  env: [{name: NODE_NAME, value: wrong}, {name: MODE, value: clean}]
                - name: report
                  image: example.com/report:1
            """;

    KubernetesClient client;
    KubernetesMockServer server;

    private final FakeTimeSource time = new FakeTimeSource();
    private final List<KubeEvents.Note> events = new CopyOnWriteArrayList<>();
    private final Remedy.External repair = (Remedy.External) new PolicyLoader().parse(CONFIGURATION, "nr.yaml")
            .policies().get(0).escalation().get(0);

    /** A new instance each time: what a restarted operator has. */
    private KubeExternalRemediations remediations() {
        return KubeExternalRemediations.builder(client).namespace(NS).events(events::add).time(time).build();
    }

    private String node(String name) {
        ExternalFixtures.addNode(client, name, Map.of(), Map.of());
        return name;
    }

    private GenericKubernetesResource job(String node) {
        return ExternalFixtures.get(client, JOB, NS, JobNames.of(node, "repair"));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> containers(GenericKubernetesResource job, String key) {
        Map<String, Object> spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
        return (List<Map<String, Object>>) pod.get(key);
    }

    @Test
    @DisplayName("a podTemplate remedy runs as a Job in remedy's namespace: every container gets NODE_NAME, the "
            + "release-workloads annotation is kept, and the node is annotated with the Job and the start")
    void created() {
        String node = node("worker-1.example.com");

        remediations().create(node, repair);

        GenericKubernetesResource job = job(node);
        assertThat(job).isNotNull();
        assertThat(job.getMetadata().getName()).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?")
                .startsWith("remedy-repair-worker-1-example-com-");
        assertThat(job.getMetadata().getAnnotations()).containsEntry("remedy.dev/release-workloads", "true")
                .containsEntry("remedy.dev/remedy", "repair").containsEntry("remedy.dev/node-name", node);
        assertThat(job.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "remedy");
        List<Map<String, Object>> all = new ArrayList<>(containers(job, "containers"));
        all.addAll(containers(job, "initContainers"));
        assertThat(all).hasSize(3).allSatisfy(c -> assertThat(c.get("env")).asList()
                .filteredOn(v -> "NODE_NAME".equals(((Map<?, ?>) v).get("name"))).singleElement()
                .isEqualTo(Map.of("name", "NODE_NAME", "value", node)));
        assertThat(containers(job, "containers").get(0).get("env")).asList()
                .contains(Map.of("name", "MODE", "value", "clean"));
        assertThat(ExternalFixtures.annotations(client.nodes().withName(node).get()))
                .containsEntry("remedy.dev/external-remedy", "repair")
                .containsEntry("remedy.dev/external-remediation", NS + "/" + job.getMetadata().getName())
                .containsEntry("remedy.dev/external-remediation-started", FakeTimeSource.DEFAULT_START.toString());
    }

    @Test
    @DisplayName("Job names are DNS labels of at most 63 characters, distinct for distinct node and remedy pairs")
    void names() {
        String longNode = "a".repeat(200) + ".example.com";
        assertThat(JobNames.of(longNode, "Repair_Now")).hasSizeLessThanOrEqualTo(63)
                .matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
        assertThat(JobNames.of(longNode, "repair")).isNotEqualTo(JobNames.of(longNode + "x", "repair"));
        assertThat(JobNames.of("n", "r")).isEqualTo(JobNames.of("n", "r"));
    }

    @Test
    @DisplayName("a succeeded Job is DONE (status.succeeded or Complete), a Failed one FAILED, else RUNNING")
    void outcome() {
        KubeExternalRemediations remediations = remediations();
        String ok = node("worker-ok");
        String complete = node("worker-complete");
        String bad = node("worker-bad");
        remediations.create(ok, repair);
        remediations.create(complete, repair);
        remediations.create(bad, repair);
        assertThat(remediations.progress(ok, repair)).isEqualTo(Progress.RUNNING);
        ExternalFixtures.setJobStatus(client, NS, JobNames.of(ok, "repair"), Map.of("active", 1));
        assertThat(remediations.progress(ok, repair)).isEqualTo(Progress.RUNNING);

        ExternalFixtures.setJobStatus(client, NS, JobNames.of(ok, "repair"), Map.of("succeeded", 1));
        ExternalFixtures.setJobStatus(client, NS, JobNames.of(complete, "repair"),
                Map.of("conditions", List.of(Map.of("type", "Complete", "status", "True"))));
        ExternalFixtures.setJobStatus(client, NS, JobNames.of(bad, "repair"), Map.of("failed", 7,
                "conditions", List.of(Map.of("type", "Failed", "status", "True", "reason", "BackoffLimitExceeded"))));

        assertThat(remediations.progress(ok, repair)).isEqualTo(Progress.DONE);
        assertThat(remediations.progress(complete, repair)).isEqualTo(Progress.DONE);
        assertThat(remediations.progress(bad, repair)).isEqualTo(Progress.FAILED);
    }

    @Test
    @DisplayName("a timeout deletes the Job with background propagation (its pods go too) and clears the node's "
            + "annotations; no timed-out annotation is written on a Job")
    void timeout() throws InterruptedException {
        String node = node("worker-2");
        KubeExternalRemediations remediations = remediations();
        remediations.create(node, repair);
        for (int i = 0; i < 100 && server.takeRequest(10, TimeUnit.MILLISECONDS) != null; i++) {
            assertThat(i).as("requests before the delete, dropped").isLessThan(99);
        }

        remediations.delete(node, repair, Cancellation.TIMED_OUT);

        assertThat(job(node)).isNull();
        List<RecordedRequest> requests = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            RecordedRequest request = server.takeRequest(10, TimeUnit.MILLISECONDS);
            if (request == null) {
                break;
            }
            requests.add(request);
        }
        assertThat(requests).as("the Job is not patched").noneMatch(r -> "PATCH".equals(r.getMethod())
                && r.getPath().contains("/jobs/"));
        List<RecordedRequest> deletes = requests.stream().filter(r -> "DELETE".equals(r.getMethod())).toList();
        assertThat(deletes).singleElement().satisfies(d -> {
            assertThat(d.getPath()).isEqualTo("/apis/batch/v1/namespaces/remedy/jobs/" + JobNames.of(node, "repair"));
            assertThat(d.getBody().readUtf8()).contains("\"propagationPolicy\":\"Background\"");
        });
        assertThat(ExternalFixtures.annotations(client.nodes().withName(node).get()))
                .doesNotContainKeys("remedy.dev/external-remedy", "remedy.dev/external-remediation",
                        "remedy.dev/external-remediation-started");
    }

    @Test
    @DisplayName("a restarted operator re-attaches to the running Job through the node's annotations and does not "
            + "start a second one")
    void reattach() {
        String node = node("worker-3");
        remediations().create(node, repair);
        String uid = job(node).getMetadata().getUid();
        time.advance(Duration.ofMinutes(1));

        KubeExternalRemediations restarted = remediations();
        restarted.create(node, repair);

        assertThat(ExternalFixtures.list(client, JOB, NS)).singleElement()
                .satisfies(j -> assertThat(j.getMetadata().getUid()).isEqualTo(uid));
        assertThat(ExternalFixtures.annotations(client.nodes().withName(node).get()))
                .as("the start is the first operator's").containsEntry("remedy.dev/external-remediation-started",
                        FakeTimeSource.DEFAULT_START.toString());
        ExternalFixtures.setJobStatus(client, NS, JobNames.of(node, "repair"), Map.of("succeeded", 1));
        assertThat(restarted.progress(node, repair)).isEqualTo(Progress.DONE);
        assertThat(events).extracting(KubeEvents.Note::reason).containsExactly("ExternalRemediationCreated");
    }

    @Test
    @DisplayName("a running Job whose node annotation was lost (a crash between the two writes) is followed, not "
            + "duplicated")
    void reattachWithoutMarks() {
        String node = node("worker-4");
        remediations().create(node, repair);
        client.nodes().withName(node).edit(n -> {
            n.getMetadata().getAnnotations().remove("remedy.dev/external-remediation");
            return n;
        });

        KubeExternalRemediations restarted = remediations();
        restarted.create(node, repair);

        assertThat(ExternalFixtures.list(client, JOB, NS)).hasSize(1);
        assertThat(ExternalFixtures.annotations(client.nodes().withName(node).get()))
                .containsEntry("remedy.dev/external-remediation", NS + "/" + JobNames.of(node, "repair"));
        ExternalFixtures.setJobStatus(client, NS, JobNames.of(node, "repair"),
                Map.of("conditions", List.of(Map.of("type", "Failed", "status", "True"))));
        assertThat(restarted.progress(node, repair)).isEqualTo(Progress.FAILED);
    }

    @Test
    @DisplayName("a pod template without containers fails the remedy with a clear Warning; no Job is created")
    void noContainers() {
        Remedy.External empty = new Remedy.External("empty", Duration.ofMinutes(5), Map.of(
                "apiVersion", "batch/v1", "kind", "Job", "spec", Map.of("template", Map.of("spec", Map.of()))));
        String node = node("worker-5");
        KubeExternalRemediations remediations = remediations();

        remediations.create(node, empty);

        assertThat(remediations.progress(node, empty)).isEqualTo(Progress.FAILED);
        assertThat(ExternalFixtures.list(client, JOB, NS)).isEmpty();
        assertThat(events).singleElement().extracting(KubeEvents.Note::note).asString()
                .contains("its pod template has no containers");
    }
}
