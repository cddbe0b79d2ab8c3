package dev.remedy.fence.kube.machine;

import dev.remedy.core.rules.RebootRequests;
import dev.remedy.fence.kube.machine.internal.Metal3Objects;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;

/**
 * A tiny stand-in for metal3's host controller and a kubelet, moved by the test one {@link #sync} at a time: a host
 * carrying any {@code reboot.metal3.io} request is powered off, one without is powered on (its {@code spec.online} is
 * true); a paused or detached host is left alone. A host that is on gets its Node back (the kubelet registers it)
 * when the Node is missing.
 */
public final class TinyBmo {

    private final MachineWorld world;

    public TinyBmo(MachineWorld world) {
        this.world = world;
    }

    /**
     * Moves the host of Machine {@code name} once.
     *
     * @return whether anything changed
     */
    public boolean sync(String name) {
        GenericKubernetesResource host = world.hostObject(name);
        if (Metal3Objects.unmanaged(host)) {
            return false;
        }
        boolean held = heldOff(host.getMetadata().getAnnotations());
        boolean on = Boolean.TRUE.equals(host.get("status", "poweredOn"));
        if (on == held) {
            world.setPower(name, !held);
            return true;
        }
        if (on && world.nodeObject(name) == null) {
            world.registerNode(name);
            return true;
        }
        return false;
    }

    static boolean heldOff(Map<String, String> annotations) {
        return annotations != null && annotations.keySet().stream().anyMatch(k -> k.equals(RebootRequests.ANNOTATION)
                || k.startsWith(RebootRequests.ANNOTATION_PREFIX));
    }
}
