package dev.remedy.fence.kube.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.fence.kube.store.AdminAnnotations.Applied;
import dev.remedy.fence.kube.store.AdminAnnotations.Command;
import dev.remedy.fence.kube.store.AdminTarget.Reply;
import dev.remedy.test.conformance.FenceRecords;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link AdminAnnotations} on the CRUD mock API server, with a fake target and a list of Events. */
@DisplayName("AdminAnnotations")
@EnableKubernetesMockClient(crud = true)
class AdminAnnotationsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    KubernetesClient client;
    private final FakeTarget target = new FakeTarget();
    private final List<KubeEvents.Note> notes = new CopyOnWriteArrayList<>();
    private AdminAnnotations admin;

    @BeforeEach
    void setUp() {
        NodeFenceCrd.apply(client);
        new KubeFenceStateStore(client).save(FenceRecords.minimal("worker-1"));
        admin = new AdminAnnotations(client, target, notes::add);
    }

    @AfterEach
    void tearDown() {
        admin.close();
        client.close(); // its watch connections closed before the mock server shuts down (slow under load)
    }

    @Test
    @DisplayName("a pause annotation is applied with its value as the actor, removed (other annotations stay), and "
            + "reported as a Normal Event on the NodeFence")
    void pauseApplied() {
        NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.PAUSE, "alice: disk swap",
                "example.com/ticket", "OPS-42"));

        List<Applied> applied = admin.handle(seen);

        assertThat(applied).extracting(Applied::command).containsExactly(Command.PAUSE);
        assertThat(target.calls).containsExactly("pause worker-1 alice: disk swap (annotation remedy.dev/pause)");
        assertThat(annotations("worker-1")).doesNotContainKey(AdminAnnotations.PAUSE)
                .containsEntry("example.com/ticket", "OPS-42");
        assertThat(notes).singleElement().satisfies(note -> {
            assertThat(note.regarding().getKind()).isEqualTo("NodeFence");
            assertThat(note.regarding().getApiVersion()).isEqualTo("remedy.dev/v1alpha1");
            assertThat(note.regarding().getName()).isEqualTo("worker-1");
            assertThat(note.regarding().getUid()).isEqualTo(seen.getMetadata().getUid());
            assertThat(note.warning()).isFalse();
            assertThat(note.reason()).isEqualTo("AdminCommandApplied");
            assertThat(note.action()).isEqualTo("Pause");
            assertThat(note.note()).contains("alice: disk swap").contains("worker-1");
        });
    }

    @Test
    @DisplayName("the same object seen again (a resync, a second event) applies nothing more")
    void seenTwiceAppliedOnce() {
        NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.CONFIRM_OFF, "bob"));

        admin.handle(seen);
        List<Applied> again = admin.handle(seen);

        assertThat(again).isEmpty();
        assertThat(target.calls).hasSize(1);
        assertThat(notes).hasSize(1);
    }

    @Test
    @DisplayName("a command the target refuses is reported as a Warning with why, and its annotation is removed")
    void refusedIsWarning() {
        target.refuse.add(Command.RESUME);
        NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.RESUME, ""));

        List<Applied> applied = admin.handle(seen);

        assertThat(applied).singleElement().satisfies(a -> {
            assertThat(a.reply().refused()).isTrue();
            assertThat(a.actor()).isEqualTo("an admin (annotation remedy.dev/resume)");
        });
        assertThat(notes).singleElement().satisfies(note -> {
            assertThat(note.warning()).isTrue();
            assertThat(note.reason()).isEqualTo("AdminCommandRefused");
            assertThat(note.action()).isEqualTo("Resume");
            assertThat(note.note()).contains("cannot resume: flow is not paused").contains("annotate again");
        });
        assertThat(annotations("worker-1")).doesNotContainKey(AdminAnnotations.RESUME);
    }

    @Test
    @DisplayName("a target that throws is reported as refused, not lost silently")
    void throwingTarget() {
        target.fail = true;
        NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.FORCE_STOP, "carol"));

        List<Applied> applied = admin.handle(seen);

        assertThat(applied).singleElement().satisfies(a -> assertThat(a.reply().refused()).isTrue());
        assertThat(notes).singleElement().satisfies(note -> assertThat(note.warning()).isTrue());
    }

    @Test
    @DisplayName("several commands on one object are all removed at once and applied in the order of Command")
    void severalInOrder() {
        NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.FORCE_STOP, "dan",
                AdminAnnotations.PAUSE, "dan", AdminAnnotations.CONFIRM_OFF, "dan"));

        List<Applied> applied = admin.handle(seen);

        assertThat(applied).extracting(Applied::command)
                .containsExactly(Command.PAUSE, Command.CONFIRM_OFF, Command.FORCE_STOP);
        assertThat(target.calls).extracting(c -> c.substring(0, c.indexOf(' ')))
                .containsExactly("pause", "confirmOff", "forceStop");
        assertThat(annotations("worker-1")).doesNotContainKeys(AdminAnnotations.FORCE_STOP, AdminAnnotations.PAUSE,
                AdminAnnotations.CONFIRM_OFF);
    }

    @Test
    @DisplayName("when the object changed after it was seen, the guarded removal is refused; the object is read "
            + "again and the command applied once, keeping the other change")
    void changedSinceSeen() {
        NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.PAUSE, "erin"));
        annotate("worker-1", Map.of("example.com/later", "yes"));

        List<Applied> applied = admin.handle(seen);

        assertThat(applied).extracting(Applied::command).containsExactly(Command.PAUSE);
        assertThat(target.calls).hasSize(1);
        assertThat(annotations("worker-1")).doesNotContainKey(AdminAnnotations.PAUSE)
                .containsEntry("example.com/later", "yes");
    }

    @Test
    @DisplayName("two replicas handling the same object at once apply each command exactly once")
    void twoReplicasApplyOnce() throws Exception {
        AdminAnnotations other = new AdminAnnotations(client, target, notes::add);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                NodeFenceResource seen = annotate("worker-1", Map.of(AdminAnnotations.PAUSE, "round " + round));
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<List<Applied>>> results = new ArrayList<>();
                for (AdminAnnotations replica : List.of(admin, other)) {
                    results.add(pool.submit(() -> {
                        start.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                        return replica.handle(seen);
                    }));
                }
                int applied = 0;
                for (Future<List<Applied>> result : results) {
                    applied += result.get(WAIT.toSeconds(), TimeUnit.SECONDS).size();
                }
                assertThat(applied).as("commands applied in round %d", round).isEqualTo(1);
            }
            assertThat(target.calls).hasSize(10);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("the informer applies a command annotated with kubectl, once, and stops")
    void informer() throws Exception {
        admin.start(Duration.ofSeconds(1)).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);

        annotate("worker-1", Map.of(AdminAnnotations.CLEAR_ERROR, "frank"));

        awaitCalls(1);
        assertThat(target.calls).containsExactly("clearError worker-1 frank (annotation remedy.dev/clear-error)");
        assertThat(annotations("worker-1")).doesNotContainKey(AdminAnnotations.CLEAR_ERROR);
        admin.stop();
        admin.stop();
    }

    @Test
    @DisplayName("the actor is the value without control characters, bounded, and names the annotation")
    void actor() {
        assertThat(AdminAnnotations.actor(Command.PAUSE, "  alice\n\tnight shift ")).isEqualTo(
                "alice  night shift (annotation remedy.dev/pause)");
        assertThat(AdminAnnotations.actor(Command.PAUSE, "x".repeat(500))).hasSizeLessThan(260).contains("…");
    }

    private void awaitCalls(int count) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (target.calls.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(target.calls).as("commands applied within %s", WAIT).hasSizeGreaterThanOrEqualTo(count);
    }

    private NodeFenceResource annotate(String name, Map<String, String> annotations) {
        return client.resources(NodeFenceResource.class).withName(name).edit(nf -> {
            nf.getMetadata().getAnnotations().putAll(annotations);
            return nf;
        });
    }

    private Map<String, String> annotations(String name) {
        return client.resources(NodeFenceResource.class).withName(name).get().getMetadata().getAnnotations();
    }

    /** Records every command; refuses the commands in {@link #refuse} like the engine would. */
    private static final class FakeTarget implements AdminTarget {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final Set<Command> refuse = EnumSet.noneOf(Command.class);
        volatile boolean fail;

        private Reply call(Command command, String method, String node, String actor) {
            calls.add(method + " " + node + " " + actor);
            if (fail) {
                throw new IllegalStateException("engine closed");
            }
            return refuse.contains(command) ? Reply.refused("cannot " + method + ": flow is not paused")
                    : Reply.accepted(method + " done");
        }

        @Override
        public Reply pause(String node, String actor) {
            return call(Command.PAUSE, "pause", node, actor);
        }

        @Override
        public Reply resume(String node, String actor) {
            return call(Command.RESUME, "resume", node, actor);
        }

        @Override
        public Reply forceStop(String node, String actor) {
            return call(Command.FORCE_STOP, "forceStop", node, actor);
        }

        @Override
        public Reply clearError(String node, String actor) {
            return call(Command.CLEAR_ERROR, "clearError", node, actor);
        }

        @Override
        public Reply confirmOff(String node, String actor) {
            return call(Command.CONFIRM_OFF, "confirmOff", node, actor);
        }
    }
}
