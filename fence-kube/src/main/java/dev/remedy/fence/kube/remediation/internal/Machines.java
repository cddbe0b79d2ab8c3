package dev.remedy.fence.kube.remediation.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cluster API Machine that owns a remediation, read at the API version of the owner reference, and its conditions
 * written through the status subresource ({@link MachineConditions} keeps the other conditions). A failed write is
 * logged and tried again at the controller's next pass.
 */
public final class Machines {

    private static final Logger LOG = LoggerFactory.getLogger(Machines.class);

    private final KubernetesClient client;

    /** Machines read and written with {@code client}. */
    public Machines(KubernetesClient client) {
        this.client = client;
    }

    /** The Machine among {@code remediation}'s owners, if there is one and it exists. */
    public Optional<GenericKubernetesResource> owner(HasMetadata remediation) {
        for (OwnerReference owner : remediation.getMetadata().getOwnerReferences()) {
            if (MachineConditions.isMachine(owner)) {
                return Optional.ofNullable(client.genericKubernetesResources(MachineConditions.context(
                        owner.getApiVersion())).inNamespace(remediation.getMetadata().getNamespace())
                        .withName(owner.getName()).get());
            }
        }
        return Optional.empty();
    }

    /** Sets condition {@code type} of {@code machine} in both places and writes its status. */
    public void write(GenericKubernetesResource machine, String type, String status, String reason, String message,
                      String severity, Instant now) {
        if (MachineConditions.set(machine, type, status, reason, message, severity, now)) {
            update(machine, type);
        }
    }

    /**
     * The remediation cannot succeed: {@code ExternallyRemediated=False/RemediationFailed}, and the Machine's owner
     * (the MachineSet) asked to replace it with {@code OwnerRemediated=False/WaitingForRemediation}.
     */
    public void giveUp(Optional<GenericKubernetesResource> machine, String message, Instant now) {
        machine.ifPresent(m -> {
            boolean changed = MachineConditions.set(m, MachineConditions.EXTERNALLY_REMEDIATED, "False",
                    "RemediationFailed", message, "Warning", now);
            changed |= MachineConditions.set(m, MachineConditions.OWNER_REMEDIATED, "False",
                    MachineConditions.WAITING_FOR_REMEDIATION, message, "Warning", now);
            if (changed) {
                update(m, MachineConditions.OWNER_REMEDIATED);
            }
        });
    }

    private void update(GenericKubernetesResource machine, String type) {
        try {
            client.genericKubernetesResources(MachineConditions.context(machine.getApiVersion()))
                    .inNamespace(machine.getMetadata().getNamespace()).resource(machine).updateStatus();
        } catch (KubernetesClientException e) {
            LOG.warn("could not write condition {} of Machine {}/{}: {}", type, machine.getMetadata().getNamespace(),
                    machine.getMetadata().getName(), e.getMessage());
        }
    }
}
