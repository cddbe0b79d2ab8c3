package dev.remedy.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.Taint;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The promises of {@link ClusterOperations}, as an abstract JUnit 5 test: each operation's effect, each operation
 * idempotent (twice is once), taints added and removed one at a time, pods deleted only on the node named, the wait for
 * released workloads returning once the pods are deleted, and a deleted Node object restored from the backup its
 * first deletion kept. Every {@code ClusterOperations}
 * implementation's test extends it (the simulated cluster of this kit; the Kubernetes one against an API server),
 * supplies the implementation, a way to create a node and readers of a node's state, and inherits the checks.
 * An implementation that must deviate overrides the test with a written reason.
 *
 * <p>Where the cluster allows it, implement the readers without the implementation under test (against an API
 * server, with a plain client), so that an operation that reports success without an effect is caught. Every test
 * works on nodes of its own, named {@code contract-<random>}, so that a shared cluster needs no cleaning between
 * tests.
 *
 * <p>{@link ClusterOperations#deleteNode} keeps a backup of the Node object; the contract checks it through what the
 * readers show, the cordon and the taints: a restored node must not become schedulable before remedy's recovery
 * runs. Pods are not part of the backup.
 */
public abstract class ClusterOperationsContract {

    /** A taint neither remedy's nor Kubernetes': one an operation must leave alone. */
    private static final Taint FOREIGN = new Taint("example.com/maintenance", "planned", "NoSchedule");

    private static final int PODS = 3;

    /** The implementation under test; the same one for the whole test. */
    protected abstract ClusterOperations cluster();

    /** Creates a Ready, schedulable, untainted node named {@code name} with {@code pods} pods bound to it. */
    protected abstract void addNode(String name, int pods);

    /** Whether {@code node} is unschedulable. */
    protected abstract boolean cordoned(String node);

    /** The taints of {@code node}, in the node's order, duplicates included. */
    protected abstract List<Taint> taints(String node);

    /** How many pods are bound to {@code node}. */
    protected abstract int pods(String node);

    /** Whether the Node object of {@code node} exists. */
    protected abstract boolean exists(String node);

    /** A node of this test: schedulable, untainted, with {@value #PODS} pods. */
    private String newNode() {
        String node = "contract-" + UUID.randomUUID();
        addNode(node, PODS);
        return node;
    }

    @Test
    @DisplayName("a new node exists, schedulable, untainted, with its pods: the fixture every other test starts from")
    public void newNodeIsAsAdded() {
        String node = newNode();

        assertThat(exists(node)).isTrue();
        assertThat(cordoned(node)).isFalse();
        assertThat(taints(node)).isEmpty();
        assertThat(pods(node)).isEqualTo(PODS);
    }

    @Test
    @DisplayName("cordon makes the node unschedulable, and cordoning it again succeeds and changes nothing")
    public void cordonIsIdempotent() {
        String node = newNode();

        cluster().cordon(node);
        assertThat(cordoned(node)).isTrue();

        cluster().cordon(node);
        assertThat(cordoned(node)).isTrue();
        assertThat(taints(node)).isEmpty();
        assertThat(pods(node)).isEqualTo(PODS);
    }

    @Test
    @DisplayName("uncordon makes a cordoned node schedulable, and uncordoning it again succeeds")
    public void uncordonIsIdempotent() {
        String node = newNode();
        cluster().cordon(node);

        cluster().uncordon(node);
        assertThat(cordoned(node)).isFalse();

        cluster().uncordon(node);
        assertThat(cordoned(node)).isFalse();
    }

    @Test
    @DisplayName("addTaint adds the taint once, however often it is called")
    public void addTaintIsIdempotent() {
        String node = newNode();

        cluster().addTaint(node, Taint.FENCING);
        assertThat(taints(node)).containsExactly(Taint.FENCING);

        cluster().addTaint(node, Taint.FENCING);
        assertThat(taints(node)).containsExactly(Taint.FENCING);
    }

    @Test
    @DisplayName("addTaint keeps the node's other taints")
    public void addTaintKeepsOtherTaints() {
        String node = newNode();
        cluster().addTaint(node, FOREIGN);

        cluster().addTaint(node, Taint.FENCING);
        cluster().addTaint(node, Taint.OUT_OF_SERVICE);

        assertThat(taints(node)).containsExactlyInAnyOrder(FOREIGN, Taint.FENCING, Taint.OUT_OF_SERVICE);
    }

    @Test
    @DisplayName("removeTaint removes that taint only, and removing it again succeeds and changes nothing")
    public void removeTaintRemovesOnlyThatTaint() {
        String node = newNode();
        cluster().addTaint(node, FOREIGN);
        cluster().addTaint(node, Taint.FENCING);
        cluster().addTaint(node, Taint.OUT_OF_SERVICE);

        cluster().removeTaint(node, Taint.OUT_OF_SERVICE);
        assertThat(taints(node)).containsExactlyInAnyOrder(FOREIGN, Taint.FENCING);

        cluster().removeTaint(node, Taint.OUT_OF_SERVICE);
        assertThat(taints(node)).containsExactlyInAnyOrder(FOREIGN, Taint.FENCING);
    }

    @Test
    @DisplayName("removing a taint the node does not have succeeds and leaves its taints as they were")
    public void removeAbsentTaintSucceeds() {
        String node = newNode();
        cluster().addTaint(node, FOREIGN);

        cluster().removeTaint(node, Taint.FENCING);

        assertThat(taints(node)).containsExactly(FOREIGN);
        assertThat(exists(node)).isTrue();
    }

    @Test
    @DisplayName("deletePods leaves no pod on the node, and deleting them again succeeds")
    public void deletePodsLeavesNoPod() {
        String node = newNode();

        cluster().deletePods(node);
        assertThat(pods(node)).isZero();

        cluster().deletePods(node);
        assertThat(pods(node)).isZero();
        assertThat(exists(node)).isTrue();
    }

    @Test
    @DisplayName("after deletePods the workloads are released: awaitWorkloadsReleased returns, and returns for a node "
            + "without pods")
    public void awaitWorkloadsReleasedAfterDeletePods() {
        String node = newNode();
        String empty = "contract-" + UUID.randomUUID();
        addNode(empty, 0);

        cluster().deletePods(node);
        cluster().awaitWorkloadsReleased(node);
        cluster().awaitWorkloadsReleased(empty);

        assertThat(pods(node)).isZero();
        assertThat(exists(node)).isTrue();
        assertThat(exists(empty)).isTrue();
        assertThat(pods(empty)).isZero();
    }

    @Test
    @DisplayName("each operation changes the node it names and no other")
    public void operationsTouchOnlyTheNamedNode() {
        String node = newNode();
        String other = newNode();
        cluster().addTaint(other, FOREIGN);

        cluster().cordon(node);
        cluster().addTaint(node, Taint.FENCING);
        cluster().deletePods(node);
        cluster().removeTaint(node, FOREIGN);
        cluster().deleteNode(node);

        assertThat(exists(other)).isTrue();
        assertThat(cordoned(other)).isFalse();
        assertThat(taints(other)).containsExactly(FOREIGN);
        assertThat(pods(other)).isEqualTo(PODS);
    }

    @Test
    @DisplayName("deleteNode deletes the Node object, and deleting it again succeeds")
    public void deleteNodeIsIdempotent() {
        String node = newNode();

        cluster().deleteNode(node);
        assertThat(exists(node)).isFalse();

        cluster().deleteNode(node);
        assertThat(exists(node)).isFalse();
    }

    @Test
    @DisplayName("restoreNode after deleteNode brings the node back cordoned and with its taints")
    public void restoreBringsTheNodeBack() {
        String node = deletedCordonedAndTainted();

        cluster().restoreNode(node);

        assertBackCordonedAndTainted(node);
    }

    @Test
    @DisplayName("deleting a node twice keeps the first backup: restoring brings back the state of the first delete")
    public void secondDeleteKeepsTheFirstBackup() {
        String node = deletedCordonedAndTainted();

        cluster().deleteNode(node);
        cluster().restoreNode(node);

        assertBackCordonedAndTainted(node);
    }

    @Test
    @DisplayName("restoring a restored node succeeds and changes nothing")
    public void restoreIsIdempotent() {
        String node = deletedCordonedAndTainted();
        cluster().restoreNode(node);

        cluster().restoreNode(node);

        assertBackCordonedAndTainted(node);
    }

    @Test
    @DisplayName("restoreNode of a node that was never deleted (no backup) does nothing")
    public void restoreWithoutBackupDoesNothing() {
        String node = newNode();
        cluster().addTaint(node, FOREIGN);

        cluster().restoreNode(node);

        assertThat(exists(node)).isTrue();
        assertThat(cordoned(node)).isFalse();
        assertThat(taints(node)).containsExactly(FOREIGN);
        assertThat(pods(node)).isEqualTo(PODS);
    }

    /** A new node, cordoned and tainted with a foreign taint and remedy's, then deleted. */
    private String deletedCordonedAndTainted() {
        String node = newNode();
        cluster().cordon(node);
        cluster().addTaint(node, FOREIGN);
        cluster().addTaint(node, Taint.FENCING);
        cluster().deleteNode(node);
        return node;
    }

    /** {@code node} exists again, cordoned, with exactly the taints it had before it was deleted. */
    private void assertBackCordonedAndTainted(String node) {
        assertThat(exists(node)).isTrue();
        assertThat(cordoned(node)).isTrue();
        assertThat(taints(node)).containsExactlyInAnyOrder(FOREIGN, Taint.FENCING);
    }
}
