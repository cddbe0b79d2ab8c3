package dev.remedy.fence.kube.watch;

import dev.remedy.config.NodeSelector;
import dev.remedy.core.policy.NodeRole;
import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner;
import dev.remedy.core.policy.UnhealthyCondition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/** Nodes, a policy and a recording remedy runner for the watcher's tests. */
final class WatchFixtures {

    static final Remedy.External SNR = new Remedy.External("snr", Duration.ofMinutes(10),
            Map.of("apiVersion", "self-node-remediation.medik8s.io/v1alpha1", "kind", "SelfNodeRemediationTemplate"));

    private WatchFixtures() {
    }

    /** Workers are unhealthy after 60 s of Ready=False or Unknown; one external remedy; no healthy delay. */
    static Policy workers() {
        return new Policy("workers", NodeSelector.ALL, NodeRole.WORKER,
                List.of(new UnhealthyCondition("Ready", "False", Duration.ofSeconds(60)),
                        new UnhealthyCondition("Ready", "Unknown", Duration.ofSeconds(60))),
                List.of(SNR), Policy.DEFAULT_EXCLUSION_LABEL, Duration.ZERO, List.of());
    }

    /** A node with the Ready condition {@code ready} since {@code since}, boot {@code bootId}, heartbeat {@code beat}. */
    static Node node(String name, String ready, Instant since, String bootId, Instant beat, Map<String, String> labels) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewStatus()
                .addNewCondition().withType("MemoryPressure").withStatus("False").withReason("KubeletHasSufficientMemory")
                .withLastTransitionTime(since.minusSeconds(3600).toString())
                .withLastHeartbeatTime(beat.toString()).endCondition()
                .addNewCondition().withType("Ready").withStatus(ready).withReason("KubeletReady")
                .withLastTransitionTime(since.toString()).withLastHeartbeatTime(beat.toString()).endCondition()
                .withNewNodeInfo().withBootID(bootId).withKubeletVersion("v1.30.2").endNodeInfo()
                .endStatus().build();
    }

    /** Waits (at most 10 s, polling) until {@code condition} holds; fails naming {@code what} otherwise. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after 10 s waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Records what the controller asks of remedies; always RUNNING. Thread-safe. */
    static final class RecordingRunner implements RemedyRunner {
        final List<String> started = new CopyOnWriteArrayList<>();
        final List<String> cancelled = new CopyOnWriteArrayList<>();

        @Override
        public void start(String node, Remedy remedy, String reason) {
            started.add(node + ":" + remedy.name());
        }

        @Override
        public Progress progress(String node, Remedy remedy) {
            return Progress.RUNNING;
        }

        @Override
        public void cancel(String node, Remedy remedy, Cancellation cause, String reason) {
            cancelled.add(node + ":" + remedy.name());
        }
    }
}
