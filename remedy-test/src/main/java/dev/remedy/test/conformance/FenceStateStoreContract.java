package dev.remedy.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.StaleRecordException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link FenceStateStore} shares, as an abstract JUnit 5 test: loading what was saved (every
 * shape of record in {@link FenceRecords}), versions that increase by one on every save, stale saves refused
 * without a change, deletes, and concurrent saves where exactly one writer of a version wins. A store's test (the
 * in-memory and JSON-file stores in remedy-core; the Kubernetes store) extends this class and supplies a fresh,
 * empty store; it may add tests of its own. A store that must deviate overrides the test with a written reason.
 */
public abstract class FenceStateStoreContract {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The store under test, new for every test. */
    protected FenceStateStore store;
    private ExecutorService executor;

    /** A new, empty store; called before every test. */
    protected abstract FenceStateStore newStore() throws Exception;

    @BeforeEach
    final void createStore() throws Exception {
        store = newStore();
        executor = Executors.newFixedThreadPool(16);
    }

    /** Stops the test's threads, then closes the store if it holds resources (a directory lock, a client). */
    @AfterEach
    final void stopThreads() throws Exception {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        if (store instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    @Test
    @DisplayName("a node that was never saved has no record, and an empty store has no records and no problems")
    public void emptyStore() {
        assertThat(store.load("worker-1")).isEmpty();
        assertThat(store.loadAll()).isEmpty();
        assertThat(store.problems()).isEmpty();
    }

    @Test
    @DisplayName("a minimal record as decided by the flow loads back equal, with version 1")
    public void minimalRoundTrip() {
        NodeFence saved = store.save(FenceRecords.minimal("worker-1"));

        assertThat(saved).isEqualTo(FenceRecords.minimal("worker-1").withVersion(1));
        assertThat(store.load("worker-1")).contains(saved);
    }

    @Test
    @DisplayName("a record with every optional, attempts, confirmed methods and an agent operation loads back equal")
    public void agentOperationRoundTrip() {
        NodeFence saved = store.save(FenceRecords.withAgentOperation("worker-1"));

        assertThat(saved).isEqualTo(FenceRecords.withAgentOperation("worker-1").withVersion(1));
        assertThat(store.load("worker-1")).contains(saved);
    }

    @Test
    @DisplayName("a record with a cluster operation and a manual confirmation loads back equal")
    public void clusterOperationRoundTrip() {
        NodeFence saved = store.save(FenceRecords.withClusterOperation("worker-1"));

        assertThat(saved).isEqualTo(FenceRecords.withClusterOperation("worker-1").withVersion(1));
        assertThat(store.load("worker-1")).contains(saved);
    }

    @Test
    @DisplayName("every save stores the record with its version plus one")
    public void versionIncrements() {
        NodeFence first = store.save(FenceRecords.minimal("worker-1"));
        NodeFence second = store.save(FenceRecords.withAgentOperation("worker-1").withVersion(first.version()));
        NodeFence third = store.save(FenceRecords.withClusterOperation("worker-1").withVersion(second.version()));

        assertThat(List.of(first.version(), second.version(), third.version())).containsExactly(1L, 2L, 3L);
        assertThat(store.load("worker-1")).contains(third);
    }

    @Test
    @DisplayName("a save with an older version is refused naming the node and both versions, and changes nothing")
    public void staleSave() {
        NodeFence first = store.save(FenceRecords.minimal("worker-1"));
        NodeFence second = store.save(FenceRecords.withAgentOperation("worker-1").withVersion(first.version()));

        NodeFence stale = FenceRecords.withClusterOperation("worker-1").withVersion(first.version());
        assertThatThrownBy(() -> store.save(stale))
                .isInstanceOf(StaleRecordException.class)
                .hasMessageContaining("'worker-1'")
                .hasMessageContaining("saving version 1")
                .hasMessageContaining("holds version 2");
        assertThat(store.load("worker-1")).contains(second);
    }

    @Test
    @DisplayName("the first save of a node must carry version 0")
    public void firstSaveNeedsVersionZero() {
        assertThatThrownBy(() -> store.save(FenceRecords.minimal("worker-1").withVersion(3)))
                .isInstanceOf(StaleRecordException.class)
                .hasMessageContaining("'worker-1'")
                .hasMessageContaining("holds version 0");
        assertThat(store.load("worker-1")).isEmpty();
    }

    @Test
    @DisplayName("loadAll returns the latest record of every node")
    public void loadAllReturnsLatest() {
        NodeFence a = store.save(FenceRecords.minimal("worker-a"));
        a = store.save(FenceRecords.withAgentOperation("worker-a").withVersion(a.version()));
        NodeFence b = store.save(FenceRecords.withClusterOperation("worker-b"));
        NodeFence c = store.save(FenceRecords.minimal("worker-c"));

        assertThat(store.loadAll()).containsExactlyInAnyOrder(a, b, c);
    }

    @Test
    @DisplayName("delete removes only that node's record, deleting a missing record does nothing, and the node can "
            + "start again at version 0")
    public void deleteRemoves() {
        store.save(FenceRecords.minimal("worker-a"));
        NodeFence b = store.save(FenceRecords.minimal("worker-b"));

        store.delete("worker-a");
        store.delete("worker-never-saved");

        assertThat(store.load("worker-a")).isEmpty();
        assertThat(store.loadAll()).containsExactly(b);
        assertThat(store.save(FenceRecords.withAgentOperation("worker-a")).version()).isEqualTo(1);
    }

    @Test
    @DisplayName("when several threads save the same version of one node at once, exactly one wins each round")
    public void concurrentSavesOfOneNode() throws Exception {
        int threads = 8;
        int rounds = 25;
        CyclicBarrier start = new CyclicBarrier(threads);
        NodeFence current = FenceRecords.minimal("worker-1");
        for (int round = 0; round < rounds; round++) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                NodeFence attempt = FenceRecords.withReason(current, "round " + round + " thread " + t);
                results.add(executor.submit(saveAfter(start, attempt)));
            }
            List<Integer> winners = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                if (results.get(t).get(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    winners.add(t);
                }
            }

            assertThat(winners).as("winners of round %d", round).hasSize(1);
            NodeFence stored = store.load("worker-1").orElseThrow();
            assertThat(stored.version()).isEqualTo(round + 1L);
            assertThat(stored.reason()).isEqualTo("round " + round + " thread " + winners.get(0));
            current = stored;
        }
    }

    @Test
    @DisplayName("saves of different nodes from many threads at once all succeed")
    public void concurrentSavesOfDifferentNodes() throws Exception {
        int nodes = 16;
        int saves = 20;
        List<Future<NodeFence>> results = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            String node = "worker-" + n;
            results.add(executor.submit(() -> {
                NodeFence record = store.save(FenceRecords.minimal(node));
                for (int i = 1; i < saves; i++) {
                    record = store.save(FenceRecords.withReason(record, "save " + i));
                }
                return record;
            }));
        }
        List<NodeFence> last = new ArrayList<>();
        for (Future<NodeFence> result : results) {
            last.add(result.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }

        assertThat(last).extracting(NodeFence::version).containsOnly((long) saves);
        assertThat(store.loadAll()).containsExactlyInAnyOrderElementsOf(last);
        assertThat(store.problems()).isEmpty();
    }

    private Callable<Boolean> saveAfter(CyclicBarrier start, NodeFence record) {
        return () -> {
            start.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            try {
                store.save(record);
                return true;
            } catch (StaleRecordException e) {
                return false;
            }
        };
    }
}
