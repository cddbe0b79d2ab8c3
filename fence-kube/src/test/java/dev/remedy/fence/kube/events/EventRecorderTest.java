package dev.remedy.fence.kube.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The recorder on the mock API server in CRUD mode, synchronous (a direct executor) and on fake time. */
@EnableKubernetesMockClient(crud = true)
class EventRecorderTest {

    KubernetesClient client;

    private final FakeTimeSource time = new FakeTimeSource();

    private EventRecorder recorder() {
        return EventRecorder.builder(client, "remedy-0").time(time).executor(Runnable::run).build();
    }

    private List<Event> events(String namespace) {
        return client.events().v1().events().inNamespace(namespace).list().getItems();
    }

    private static KubeEvents.Note note(String node, String text) {
        return new KubeEvents.Note(References.node(node), true, "FenceDecided", "Decide", text);
    }

    @Test
    @DisplayName("a note about a Node becomes an events.k8s.io/v1 Event in default with every field set")
    void createsEvent() {
        recorder().publish(note("worker-1", "remedy decided to fence node worker-1"));
        assertThat(events("default")).singleElement().satisfies(e -> {
            assertThat(e.getMetadata().getName()).startsWith("worker-1.");
            assertThat(e.getReportingController()).isEqualTo("remedy.dev/remedy");
            assertThat(e.getReportingInstance()).isEqualTo("remedy-0");
            assertThat(e.getReason()).isEqualTo("FenceDecided");
            assertThat(e.getAction()).isEqualTo("Decide");
            assertThat(e.getNote()).isEqualTo("remedy decided to fence node worker-1");
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getRegarding().getKind()).isEqualTo("Node");
            assertThat(e.getRegarding().getName()).isEqualTo("worker-1");
            assertThat(e.getEventTime().getTime()).isEqualTo("2026-01-01T00:00:00.000000Z");
            assertThat(e.getSeries()).isNull();
        });
    }

    @Test
    @DisplayName("a namespaced object's Event goes to its namespace")
    void namespacedObject() {
        recorder().publish(new KubeEvents.Note(new ObjectReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
                .withNamespace("ops").withName("remedy-policies").build(), false, "PoliciesLoaded", "Load", "3"));
        assertThat(events("ops")).singleElement().satisfies(e -> assertThat(e.getType()).isEqualTo("Normal"));
        assertThat(events("default")).isEmpty();
    }

    @Test
    @DisplayName("repeats within the window are one Event with a series; after the window a new Event")
    void aggregatesRepeats() {
        EventRecorder recorder = recorder();
        recorder.publish(note("w1", "same"));
        time.advance(Duration.ofSeconds(10));
        recorder.publish(note("w1", "same"));
        assertThat(events("default")).singleElement().satisfies(e -> {
            assertThat(e.getSeries().getCount()).isEqualTo(2);
            assertThat(e.getSeries().getLastObservedTime().getTime()).isEqualTo("2026-01-01T00:00:10.000000Z");
        });
        for (int i = 0; i < 50; i++) {
            time.advance(Duration.ofSeconds(1));
            recorder.publish(note("w1", "same"));
        }
        recorder.flush();
        assertThat(events("default")).singleElement().satisfies(e -> {
            assertThat(e.getSeries().getCount()).isEqualTo(52);
            assertThat(e.getSeries().getLastObservedTime().getTime()).isEqualTo("2026-01-01T00:01:00.000000Z");
        });

        recorder.publish(note("w1", "another note"));
        assertThat(events("default")).hasSize(2);
        time.advance(Duration.ofMinutes(7));
        recorder.publish(note("w1", "same"));
        assertThat(events("default")).hasSize(3);
    }

    @Test
    @DisplayName("at most maxEventsPerObject distinct Events about one object per window; the rest are dropped")
    void boundPerObject() {
        EventRecorder recorder = EventRecorder.builder(client, "remedy-0").time(time).executor(Runnable::run)
                .maxEventsPerObject(3).build();
        for (int i = 0; i < 5; i++) {
            recorder.publish(note("w1", "note " + i));
        }
        recorder.publish(note("w2", "note 0"));
        assertThat(events("default")).hasSize(4);
        assertThat(recorder.dropped()).isEqualTo(2);
        time.advance(Duration.ofMinutes(7));
        recorder.publish(note("w1", "note 9"));
        assertThat(events("default")).hasSize(5);
    }

    @Test
    @DisplayName("the note is capped at 1 KiB of UTF-8, at a character boundary")
    void capsNote() {
        recorder().publish(note("w1", "é".repeat(2000)));
        String kept = events("default").get(0).getNote();
        assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1024).isGreaterThan(1000);
        assertThat(kept).endsWith("…").startsWith("éé");
    }

    @Test
    @DisplayName("a server that cannot be reached makes publish log, never throw")
    void neverThrows() {
        try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:1").withRequestRetryBackoffLimit(0).withRequestTimeout(2000)
                .withConnectionTimeout(2000).build()).build()) {
            EventRecorder recorder = EventRecorder.builder(unreachable, "remedy-0").time(time)
                    .executor(Runnable::run).build();
            recorder.publish(note("w1", "x"));
            recorder.publish(note("w1", "x"));
            recorder.flush();
        }
        recorder().publish(note("w1", "x"));
        assertThat(events("default")).hasSize(1);
    }

    @Test
    @DisplayName("an Event namespace other than default or kube-system is refused with the reason")
    void namespaceChoice() {
        assertThatThrownBy(() -> EventRecorder.builder(client, "remedy-0").namespace("remedy"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default or kube-system");
    }

    @Test
    @DisplayName("the recorder's own thread writes queued notes; close waits for them")
    void ownThread() {
        EventRecorder recorder = EventRecorder.builder(client, "remedy-0").time(time).build();
        recorder.publish(note("w1", "a"));
        recorder.publish(note("w2", "b"));
        recorder.close();
        assertThat(events("default")).hasSize(2);
    }
}
