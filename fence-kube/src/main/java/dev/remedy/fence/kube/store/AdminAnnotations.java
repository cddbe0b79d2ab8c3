package dev.remedy.fence.kube.store;

import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.fence.kube.events.References;
import dev.remedy.fence.kube.store.AdminTarget.Reply;
import dev.remedy.fence.kube.store.internal.AnnotationPatch;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin commands given as annotations on a {@link NodeFenceResource}: {@code kubectl annotate nodefence worker-1
 * remedy.dev/pause="alice: disk swap"}. The value says who and why (optional); it becomes the actor the engine
 * records in the flow. Each command found is applied once to an {@link AdminTarget}, logged, and reported as a
 * {@link KubeEvents.Note} regarding the NodeFence (a Warning if the target refused it).
 *
 * <p><b>At most once.</b> The annotations are removed first, with a JSON patch that tests the resourceVersion the
 * object was seen with; only if that patch succeeds are the commands applied. A patch refused because the object
 * changed (another replica removed them, an admin edited it) makes this class read the object again and retry
 * with what is still there, so two replicas or two informer events never apply one command twice. A crash between
 * the removal and the application loses the command (the annotation is gone and no Event says it was applied): the
 * admin annotates again. The other order could apply a command twice after a crash, and a repeated
 * {@code confirm-off} or {@code force-stop} could land on a newer flow of the same node, which is worse.
 *
 * <p>Several commands on one object are applied in the order of {@link Command}. Thread-safe; {@link #handle}
 * blocks on API calls and on the target.
 */
public final class AdminAnnotations implements AutoCloseable {

    /** Pause the node's flow. */
    public static final String PAUSE = "remedy.dev/pause";
    /** Resume the node's paused flow. */
    public static final String RESUME = "remedy.dev/resume";
    /** End the node's flow now. */
    public static final String FORCE_STOP = "remedy.dev/force-stop";
    /** Close the node's flow that gave up in ERROR. */
    public static final String CLEAR_ERROR = "remedy.dev/clear-error";
    /** The admin states the node is powered off. */
    public static final String CONFIRM_OFF = "remedy.dev/confirm-off";

    /** How often {@link #handle} reads the object again when it keeps changing under the removal. */
    static final int MAX_ATTEMPTS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(AdminAnnotations.class);
    private static final int HTTP_NOT_FOUND = 404;
    private static final int HTTP_CONFLICT = 409;
    private static final int HTTP_UNPROCESSABLE = 422;
    private static final int MAX_ACTOR = 200;

    /** The commands, in the order they are applied when several are present. */
    public enum Command {
        /** {@value AdminAnnotations#PAUSE}. */
        PAUSE(AdminAnnotations.PAUSE, "Pause", AdminTarget::pause),
        /** {@value AdminAnnotations#RESUME}. */
        RESUME(AdminAnnotations.RESUME, "Resume", AdminTarget::resume),
        /** {@value AdminAnnotations#CONFIRM_OFF}. */
        CONFIRM_OFF(AdminAnnotations.CONFIRM_OFF, "ConfirmOff", AdminTarget::confirmOff),
        /** {@value AdminAnnotations#CLEAR_ERROR}. */
        CLEAR_ERROR(AdminAnnotations.CLEAR_ERROR, "ClearError", AdminTarget::clearError),
        /** {@value AdminAnnotations#FORCE_STOP}. */
        FORCE_STOP(AdminAnnotations.FORCE_STOP, "ForceStop", AdminTarget::forceStop);

        private final String annotation;
        private final String action;
        private final Invocation invocation;

        Command(String annotation, String action, Invocation invocation) {
            this.annotation = annotation;
            this.action = action;
            this.invocation = invocation;
        }

        /** The annotation key. */
        public String annotation() {
            return annotation;
        }

        /** The Event action, UpperCamelCase. */
        public String action() {
            return action;
        }
    }

    /**
     * One command applied.
     *
     * @param command the command
     * @param node    the node (the NodeFence's name)
     * @param actor   who asked, as given to the target
     * @param reply   the target's answer
     */
    public record Applied(Command command, String node, String actor, Reply reply) {
    }

    private final KubernetesClient client;
    private final AdminTarget target;
    private final KubeEvents events;
    private SharedIndexInformer<NodeFenceResource> informer;

    /** Applies commands found on NodeFences through {@code client} to {@code target}, reporting to {@code events}. */
    public AdminAnnotations(KubernetesClient client, AdminTarget target, KubeEvents events) {
        this.client = Objects.requireNonNull(client, "client");
        this.target = Objects.requireNonNull(target, "target");
        this.events = Objects.requireNonNull(events, "events");
    }

    /**
     * Applies each command annotated on {@code seen} (a NodeFence as an informer saw it) that no one applied yet,
     * after removing its annotation.
     *
     * @return the commands applied by this call, in order; empty if none was present or another caller took them
     * @throws KubernetesClientException if the API server refuses the removal for another reason than a change
     */
    public List<Applied> handle(NodeFenceResource seen) {
        String name = seen.getMetadata().getName();
        NodeFenceResource current = seen;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Map<Command, String> present = present(current);
            if (present.isEmpty()) {
                return List.of();
            }
            if (removed(current, present)) {
                return apply(current, present);
            }
            current = client.resources(NodeFenceResource.class).withName(name).get();
            if (current == null) {
                return List.of();
            }
        }
        LOG.warn("NodeFence '{}' kept changing while its admin annotations were being removed ({} attempts); they "
                + "are left for the next event", name, MAX_ATTEMPTS);
        return List.of();
    }

    /**
     * Starts an informer on NodeFences that {@link #handle handles} every added or updated one on the informer's
     * thread, and resyncs every {@code resync}.
     *
     * @return completes when the informer has listed the NodeFences once (bound the wait on it yourself)
     * @throws IllegalStateException if already started
     */
    public synchronized CompletionStage<Void> start(Duration resync) {
        if (informer != null) {
            throw new IllegalStateException("the NodeFence admin-annotation informer is already started; stop it first");
        }
        informer = client.resources(NodeFenceResource.class).runnableInformer(resync.toMillis());
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(NodeFenceResource obj) {
                handleQuietly(obj);
            }

            @Override
            public void onUpdate(NodeFenceResource oldObj, NodeFenceResource newObj) {
                handleQuietly(newObj);
            }

            @Override
            public void onDelete(NodeFenceResource obj, boolean deletedFinalStateUnknown) {
                // nothing to apply to a deleted record
            }
        });
        return informer.start();
    }

    /** Stops the informer, if started. Idempotent. */
    public synchronized void stop() {
        if (informer != null) {
            informer.stop();
            informer = null;
        }
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private void handleQuietly(NodeFenceResource seen) {
        try {
            handle(seen);
        } catch (RuntimeException e) {
            LOG.warn("Could not handle the admin annotations of NodeFence '{}': {}; trying again at the next event",
                    seen.getMetadata().getName(), e.toString());
        }
    }

    private static Map<Command, String> present(NodeFenceResource resource) {
        Map<String, String> annotations = resource.getMetadata().getAnnotations();
        Map<Command, String> present = new LinkedHashMap<>();
        if (annotations != null) {
            for (Command command : Command.values()) {
                String value = annotations.get(command.annotation());
                if (value != null) {
                    present.put(command, value);
                }
            }
        }
        return present;
    }

    /** Whether the annotations were removed from the object as it was seen; false if it changed since. */
    private boolean removed(NodeFenceResource seen, Map<Command, String> present) {
        String rv = seen.getMetadata().getResourceVersion();
        if (rv == null) {
            return false;
        }
        String patch = AnnotationPatch.removeIfUnchanged(rv, present.keySet().stream().map(Command::annotation)
                .toList());
        try {
            client.resources(NodeFenceResource.class).withName(seen.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON), patch);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HTTP_CONFLICT || e.getCode() == HTTP_UNPROCESSABLE || e.getCode() == HTTP_NOT_FOUND) {
                LOG.debug("NodeFence '{}' changed since it was seen (HTTP {}); reading it again",
                        seen.getMetadata().getName(), e.getCode());
                return false;
            }
            throw e;
        }
    }

    private List<Applied> apply(NodeFenceResource resource, Map<Command, String> present) {
        String node = resource.getMetadata().getName();
        List<Applied> applied = new ArrayList<>();
        present.forEach((command, value) -> {
            String actor = actor(command, value);
            LOG.info("Applying admin command {} to node '{}' for {}", command.annotation(), node, actor);
            Reply reply;
            try {
                reply = command.invocation.apply(target, node, actor);
            } catch (RuntimeException e) {
                reply = Reply.refused("it failed: " + e);
            }
            applied.add(new Applied(command, node, actor, reply));
            String verb = command.name().toLowerCase(Locale.ROOT).replace('_', '-');
            String note = reply.refused()
                    ? verb + " of node " + node + " asked by " + actor + " was refused: " + reply.detail()
                    + "; the annotation was removed, annotate again once it applies"
                    : verb + " of node " + node + " asked by " + actor + " applied: " + reply.detail();
            if (reply.refused()) {
                LOG.warn("Admin command {} on node '{}' refused: {}", command.annotation(), node, reply.detail());
            }
            events.publish(new KubeEvents.Note(reference(resource), reply.refused(),
                    reply.refused() ? "AdminCommandRefused" : "AdminCommandApplied", command.action(), note));
        });
        return List.copyOf(applied);
    }

    /** The actor for the engine: the annotation's value (cleaned, bounded) and which annotation it came from. */
    static String actor(Command command, String value) {
        String who = value.replaceAll("\\p{Cntrl}", " ").strip();
        if (who.length() > MAX_ACTOR) {
            who = who.substring(0, MAX_ACTOR) + "…";
        }
        return (who.isEmpty() ? "an admin" : who) + " (annotation " + command.annotation() + ")";
    }

    private static ObjectReference reference(NodeFenceResource resource) {
        return new ObjectReferenceBuilder(References.nodeFence(resource.getMetadata().getName()))
                .withUid(resource.getMetadata().getUid()).build();
    }

    @FunctionalInterface
    private interface Invocation {
        Reply apply(AdminTarget target, String node, String actor);
    }
}
