package dev.remedy.fence.kube.agent.internal;

import dev.remedy.core.rules.ProvisioningState;
import dev.remedy.core.rules.RebootRequests;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the {@code metal3} agent reads from a metal3 {@code BareMetalHost} ({@code metal3.io/v1alpha1}).
 *
 * @param namespace         the host's namespace
 * @param name              the host's name
 * @param uid               {@code metadata.uid}, which keys remedy's reboot request
 * @param annotations       every annotation
 * @param online            {@code spec.online}; empty when absent
 * @param poweredOn         {@code status.poweredOn}; empty when absent
 * @param provisioningState {@code status.provisioning.state} as written; empty when absent
 */
public record BareMetalHost(String namespace, String name, String uid, Map<String, String> annotations,
                            Optional<Boolean> online, Optional<Boolean> poweredOn, String provisioningState) {

    /** The resource of BareMetalHosts. */
    public static final ResourceDefinitionContext RESOURCE = new ResourceDefinitionContext.Builder()
            .withGroup("metal3.io").withVersion("v1alpha1").withKind("BareMetalHost").withPlural("baremetalhosts")
            .withNamespaced(true).build();
    /** The annotation that detaches a host from the bare-metal operator: no power control. */
    public static final String DETACHED = "baremetalhost.metal3.io/detached";
    /** The annotation that pauses the bare-metal operator's reconciling of a host: no power control. */
    public static final String PAUSED = "baremetalhost.metal3.io/paused";
    /** The prefix of remedy's keyed reboot request; the host's uid follows. */
    public static final String REMEDY_KEY_PREFIX = RebootRequests.ANNOTATION_PREFIX + "remedy-";
    /** The value of remedy's request: power off at once. */
    public static final String HARD = "{\"mode\":\"hard\"}";

    private static final Map<String, ProvisioningState> STATES = Map.of(
            "unmanaged", ProvisioningState.UNMANAGED, "registering", ProvisioningState.REGISTERING,
            "inspecting", ProvisioningState.INSPECTING, "available", ProvisioningState.AVAILABLE,
            "ready", ProvisioningState.AVAILABLE, "provisioning", ProvisioningState.PROVISIONING,
            "provisioned", ProvisioningState.PROVISIONED,
            "externally provisioned", ProvisioningState.EXTERNALLY_PROVISIONED,
            "deprovisioning", ProvisioningState.DEPROVISIONING, "deleting", ProvisioningState.DELETING);

    /** Validates the fields and copies the annotations. */
    public BareMetalHost {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(uid, "uid");
        annotations = Map.copyOf(annotations);
        Objects.requireNonNull(online, "online");
        Objects.requireNonNull(poweredOn, "poweredOn");
        Objects.requireNonNull(provisioningState, "provisioningState");
    }

    /** Reads the fields of {@code resource}. */
    public static BareMetalHost of(GenericKubernetesResource resource) {
        Map<String, String> annotations = Optional.ofNullable(resource.getMetadata().getAnnotations()).orElse(Map.of());
        return new BareMetalHost(resource.getMetadata().getNamespace(), resource.getMetadata().getName(),
                Objects.requireNonNullElse(resource.getMetadata().getUid(), ""), annotations,
                bool(resource.get("spec", "online")), bool(resource.get("status", "poweredOn")),
                Objects.requireNonNullElse(resource.get("status", "provisioning", "state"), ""));
    }

    /** The provisioning state as the reboot rules know it; empty for a state they do not name. */
    public Optional<ProvisioningState> state() {
        return Optional.ofNullable(STATES.get(provisioningState.toLowerCase(Locale.ROOT)));
    }

    /** remedy's keyed reboot request on this host: {@code reboot.metal3.io/remedy-<uid>}. */
    public String remedyAnnotation() {
        return REMEDY_KEY_PREFIX + uid;
    }

    /** Whether remedy's request is on the host with the hard mode. */
    public boolean hasRemedyRequest() {
        return HARD.equals(annotations.get(remedyAnnotation()));
    }

    /** Keyed reboot requests of other clients, sorted: each holds the host off until its client removes it. */
    public List<String> otherKeyedRequests() {
        return annotations.keySet().stream().filter(k -> k.startsWith(RebootRequests.ANNOTATION_PREFIX))
                .filter(k -> !k.equals(remedyAnnotation())).sorted().toList();
    }

    /** {@code namespace/name}. */
    public String ref() {
        return namespace + "/" + name;
    }

    /** The power as read, for details: {@code poweredOn=true}, or {@code poweredOn unset}. */
    public String powerText() {
        return poweredOn.map(p -> "status.poweredOn=" + p).orElse("status.poweredOn unset");
    }

    private static Optional<Boolean> bool(Object value) {
        return value instanceof Boolean b ? Optional.of(b) : Optional.empty();
    }
}
