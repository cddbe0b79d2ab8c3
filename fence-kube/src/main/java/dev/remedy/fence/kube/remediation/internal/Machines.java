package dev.remedy.fence.kube.remediation.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cluster API Machine that owns a remediation, read at the API version of the owner reference, and its conditions
 * written through the status subresource ({@link MachineConditions} keeps the other conditions).
 *
 * <p>Reasons: Cluster API defines, for {@code ExternallyRemediated}, only {@code WaitingForRemediation} (its v1beta2
 * {@code MachineExternallyRemediatedWaitingForRemediationReason}) and two reasons MachineHealthCheck itself sets when it
 * cannot create the remediation ({@code RemediationTemplateNotFound}, {@code RemediationRequestCreationFailed}); for
 * {@code OwnerRemediated}, only {@code WaitingForRemediation}. So remedy writes no reason of its own:
 * {@code ExternallyRemediated} stays {@code False/WaitingForRemediation} (as MachineHealthCheck set it) and its message
 * says where remedy is (held, fencing, fenced and released, given up); giving up adds
 * {@code OwnerRemediated=False/WaitingForRemediation}, which asks the MachineSet to replace the Machine.
 *
 * <p>A write re-reads the Machine and tries again when the API server answers 409 (someone else changed it), at most
 * {@value #ATTEMPTS} times; a write that changes nothing is not sent, so the controller may assert the same conditions
 * at every pass.
 */
public final class Machines {

    /** How many times one write is tried when it conflicts with another writer. */
    static final int ATTEMPTS = 3;

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

    /**
     * Remediation is under way or over: {@code ExternallyRemediated=False/WaitingForRemediation} in both places with
     * {@code message} saying where remedy is.
     */
    public void progress(GenericKubernetesResource machine, String message, Instant now) {
        update(machine, MachineConditions.EXTERNALLY_REMEDIATED, m -> MachineConditions.set(m,
                MachineConditions.EXTERNALLY_REMEDIATED, "False", MachineConditions.WAITING_FOR_REMEDIATION, message,
                "Info", now));
    }

    /**
     * The remediation cannot succeed: the Machine's owner (the MachineSet) asked to replace it with
     * {@code OwnerRemediated=False/WaitingForRemediation}, and {@code ExternallyRemediated}'s message says why.
     * Idempotent: nothing is written when both are already in place.
     */
    public void giveUp(Optional<GenericKubernetesResource> machine, String message, Instant now) {
        machine.ifPresent(m -> update(m, MachineConditions.OWNER_REMEDIATED, fresh -> {
            boolean changed = MachineConditions.set(fresh, MachineConditions.EXTERNALLY_REMEDIATED, "False",
                    MachineConditions.WAITING_FOR_REMEDIATION, "remedy gave up: " + message, "Warning", now);
            changed |= MachineConditions.set(fresh, MachineConditions.OWNER_REMEDIATED, "False",
                    MachineConditions.WAITING_FOR_REMEDIATION, message, "Warning", now);
            return changed;
        }));
    }

    /** Applies {@code change} and writes the status if it changed anything; on a conflict, re-reads and tries again. */
    private void update(GenericKubernetesResource machine, String type, Predicate<GenericKubernetesResource> change) {
        GenericKubernetesResource current = machine;
        for (int attempt = 1; attempt <= ATTEMPTS && current != null; attempt++) {
            if (!change.test(current)) {
                return;
            }
            try {
                writeStatus(current);
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == ATTEMPTS) {
                    LOG.warn("could not write condition {} of Machine {}/{} (try {} of {}): {}; tried again at the "
                            + "controller's next pass", type, machine.getMetadata().getNamespace(),
                            machine.getMetadata().getName(), attempt, ATTEMPTS, e.getMessage());
                    return;
                }
                current = reread(current);
            }
        }
    }

    private void writeStatus(GenericKubernetesResource machine) {
        client.genericKubernetesResources(MachineConditions.context(machine.getApiVersion()))
                .inNamespace(machine.getMetadata().getNamespace()).resource(machine).updateStatus();
    }

    private GenericKubernetesResource reread(GenericKubernetesResource machine) {
        return client.genericKubernetesResources(MachineConditions.context(machine.getApiVersion()))
                .inNamespace(machine.getMetadata().getNamespace()).withName(machine.getMetadata().getName()).get();
    }
}
