package dev.remedy.fence.kube.machine;

import dev.remedy.core.rules.EscalateStrategy;
import dev.remedy.fence.kube.remediation.NodeFenceRemediation;
import dev.remedy.fence.kube.remediation.StrategyRemediator;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code escalate} strategy of a NodeFenceRemediation ({@code spec.strategy: escalate}, the Cluster API
 * external-remediation proposal's flat form) run by an {@link EscalateRemediator}: the remediation's status is the
 * strategy's (phase, retries, conditions), written by the remediator. A remediation it cannot run (another strategy,
 * an invalid spec, no Machine naming a BareMetalHost) is refused with the reason, so the health checker moves on.
 */
public final class NodeFenceEscalation implements StrategyRemediator {

    private final EscalateRemediator remediator;

    /** Runs escalations with {@code remediator}. */
    public NodeFenceEscalation(EscalateRemediator remediator) {
        this.remediator = Objects.requireNonNull(remediator, "remediator");
    }

    @Override
    public Optional<String> remediate(NodeFenceRemediation remediation, String node) {
        String strategy = remediation.getSpec().getStrategy();
        if (!EscalateStrategy.TYPE.equals(strategy)) {
            return Optional.of("spec.strategy " + strategy + " is not a strategy remedy runs; write strategy: "
                    + EscalateStrategy.TYPE + ", or remove spec.strategy to fence the node as FenceAgentsRemediation "
                    + "does");
        }
        EscalateRemediator.Result result = remediator.reconcile(reference(remediation));
        return result.statusWritten() || result.skipped().isEmpty() ? Optional.empty() : result.skipped();
    }

    @Override
    public void cleanUp(NodeFenceRemediation remediation, String node) {
        remediator.reconcile(reference(remediation)); // an object being deleted releases its host
    }

    private static GenericKubernetesResource reference(NodeFenceRemediation remediation) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(remediation.getApiVersion());
        object.setKind(remediation.getKind());
        object.setMetadata(new ObjectMetaBuilder().withNamespace(remediation.getMetadata().getNamespace())
                .withName(remediation.getMetadata().getName()).build());
        return object;
    }
}
