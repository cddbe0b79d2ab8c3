package dev.remedy.fence.kube.cluster.internal;

import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a verified-off node's workloads: force-deletes its pods, then waits until none is terminating and no
 * {@code storage.k8s.io/v1} VolumeAttachment names the node, as Self Node Remediation does. Pods are listed per
 * node, a page at a time ({@link NodePods}); VolumeAttachments have no field selector, so they are listed a page at
 * a time and filtered on {@code spec.nodeName}. Every wait is bounded.
 */
public final class WorkloadRelease {

    /** How many objects an error message names at most. */
    private static final int NAMED = 5;
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadRelease.class);

    private final KubernetesClient client;
    private final NodePods pods;
    private final Settings settings;
    private final TimeSource time;
    private final KubeEvents events;

    /**
     * The knobs of a release.
     *
     * @param pageSize                   pods and VolumeAttachments per list request
     * @param timeout                    the bound on {@link #awaitReleased}
     * @param pollInterval               the pause between two looks
     * @param deleteVolumeAttachments    whether VolumeAttachments naming the node may be deleted
     */
    public record Settings(int pageSize, Duration timeout, Duration pollInterval, boolean deleteVolumeAttachments) {

        /** Validates the bounds. */
        public Settings {
            if (pageSize < 1) {
                throw new IllegalArgumentException("pageSize must be at least 1, got " + pageSize);
            }
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(pollInterval, "pollInterval");
        }
    }

    /** A release through {@code client}, listing a node's pods with {@code pods}. */
    public WorkloadRelease(KubernetesClient client, NodePods pods, Settings settings, TimeSource time,
                           KubeEvents events) {
        this.client = Objects.requireNonNull(client, "client");
        this.pods = Objects.requireNonNull(pods, "pods");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.time = Objects.requireNonNull(time, "time");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** Force-deletes (grace period 0) every pod bound to {@code node}, in every namespace. */
    public void deletePods(String node) {
        int[] deleted = {0};
        forEachPod(node, pod -> {
            String namespace = pod.getMetadata().getNamespace();
            String name = pod.getMetadata().getName();
            try {
                // a pod already gone answers 404, which fabric8 reports as nothing deleted
                client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
                deleted[0]++;
            } catch (KubernetesClientException e) {
                throw NodeEdits.failure("force-delete pod " + namespace + "/" + name + " of node " + node, e);
            }
        });
        LOG.info("force-deleted {} pods of node {}", deleted[0], node);
    }

    /**
     * Returns once no pod of {@code node} has a {@code deletionTimestamp} and no VolumeAttachment names it; deletes
     * those VolumeAttachments when the settings allow it.
     *
     * @throws IllegalStateException      if that is not so within the timeout, naming what is left
     * @throws CancellationException      if the thread is interrupted while waiting (the flag is set again)
     */
    public void awaitReleased(String node) {
        long start = time.nanoTime();
        while (true) {
            List<Pod> terminating = terminatingPods(node);
            if (terminating.isEmpty()) {
                break;
            }
            pause(node, start, () -> terminating.size() + " pod(s) of node " + node + " still terminating ("
                    + names(terminating.stream().map(p -> p.getMetadata().getNamespace() + "/"
                    + p.getMetadata().getName()).toList()) + "): they have finalizers, or nothing confirms their "
                    + "deletion; force-delete them or remove their finalizers");
        }
        while (true) {
            List<VolumeAttachment> attached = attachments(node);
            if (attached.isEmpty()) {
                return;
            }
            if (settings.deleteVolumeAttachments()) {
                attached.stream().filter(va -> va.getMetadata().getDeletionTimestamp() == null)
                        .forEach(va -> deleteAttachment(node, va));
            }
            String hint = settings.deleteVolumeAttachments()
                    ? "they were deleted, but finalizers keep them: check the CSI driver's external-attacher"
                    : "the attach/detach controller has not detached them: check the CSI driver, or let remedy "
                    + "delete stale VolumeAttachments of a node verified off (deleteStaleVolumeAttachments)";
            pause(node, start, () -> attached.size() + " VolumeAttachment(s) still name node " + node + " ("
                    + names(attached.stream().map(va -> va.getMetadata().getName()).toList()) + "): " + hint);
        }
    }

    /** Sleeps one poll interval, or fails with {@code left}'s description when the bound has passed. */
    private void pause(String node, long start, Supplier<String> left) {
        Duration elapsed = Duration.ofNanos(time.nanoTime() - start);
        Duration remaining = settings.timeout().minus(elapsed);
        if (remaining.isNegative() || remaining.isZero()) {
            throw new IllegalStateException("the workloads of node " + node + " are not released after "
                    + settings.timeout() + ": " + left.get() + "; the engine retries");
        }
        try {
            time.sleep(remaining.compareTo(settings.pollInterval()) < 0 ? remaining : settings.pollInterval());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            CancellationException stop = new CancellationException("interrupted while waiting for the workloads "
                    + "of node " + node + " to be released");
            stop.initCause(e);
            throw stop;
        }
    }

    private List<Pod> terminatingPods(String node) {
        List<Pod> terminating = new ArrayList<>();
        forEachPod(node, pod -> {
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                terminating.add(pod);
            }
        });
        return terminating;
    }

    /** Calls {@code action} with every pod bound to {@code node}, a page at a time. */
    private void forEachPod(String node, Consumer<Pod> action) {
        String token = null;
        do {
            PodList page;
            try {
                page = pods.page(node, settings.pageSize(), token);
            } catch (KubernetesClientException e) {
                throw NodeEdits.failure("list the pods of node " + node, e);
            }
            // a server that pages keeps the snapshot of the first page: deleting while paging skips nothing;
            // filtered again: a server that ignored the selector must not make remedy delete other nodes' pods
            page.getItems().stream().filter(pod -> pod.getSpec() != null && node.equals(pod.getSpec().getNodeName()))
                    .forEach(action);
            token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (token != null && !token.isEmpty());
    }

    /** The VolumeAttachments whose {@code spec.nodeName} is {@code node} (no field selector exists for them). */
    private List<VolumeAttachment> attachments(String node) {
        List<VolumeAttachment> naming = new ArrayList<>();
        String token = null;
        do {
            VolumeAttachmentList page;
            try {
                page = client.storage().v1().volumeAttachments().list(new ListOptionsBuilder()
                        .withLimit((long) settings.pageSize()).withContinue(token).build());
            } catch (KubernetesClientException e) {
                throw NodeEdits.failure("list the VolumeAttachments of node " + node, e);
            }
            page.getItems().stream().filter(va -> va.getSpec() != null && node.equals(va.getSpec().getNodeName()))
                    .forEach(naming::add);
            token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (token != null && !token.isEmpty());
        return naming;
    }

    private void deleteAttachment(String node, VolumeAttachment va) {
        String name = va.getMetadata().getName();
        try {
            client.storage().v1().volumeAttachments().withName(name).delete();
        } catch (KubernetesClientException e) {
            throw NodeEdits.failure("delete VolumeAttachment " + name + " of node " + node, e);
        }
        LOG.warn("deleted VolumeAttachment {} of node {}, verified off (deleteStaleVolumeAttachments)", name, node);
        events.publish(new KubeEvents.Note(new ObjectReferenceBuilder().withApiVersion("storage.k8s.io/v1")
                .withKind("VolumeAttachment").withName(name).withUid(va.getMetadata().getUid()).build(), true,
                "VolumeAttachmentDeleted", "Release", "remedy deleted VolumeAttachment " + name + " of node " + node
                + ", which is verified off, so that its volume can attach elsewhere"));
    }

    private static String names(List<String> names) {
        String shown = names.stream().limit(NAMED).collect(Collectors.joining(", "));
        return names.size() > NAMED ? shown + ", and " + (names.size() - NAMED) + " more" : shown;
    }
}
