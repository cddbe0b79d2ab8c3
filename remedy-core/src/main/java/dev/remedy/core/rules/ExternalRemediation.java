package dev.remedy.core.rules;

import java.util.Objects;

/** External remediation (Cluster API MachineHealthCheck convention): one remediation object per unhealthy machine. */
public final class ExternalRemediation {

    private ExternalRemediation() {
    }

    /**
     * Makes the remediation object for a machine.
     *
     * @param template the remediation template
     * @param machine  the unhealthy machine
     * @return an object of the template's object kind, named and namespaced as the machine, with the template's spec
     *         and a controller owner reference to the machine
     */
    public static RemediationRequest instantiate(RemediationTemplate template, MachineRef machine) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(machine, "machine");
        OwnerReference owner = new OwnerReference(machine.apiVersion(), machine.kind(), machine.name(), machine.uid(),
                true);
        return new RemediationRequest(template.apiVersion(), template.objectKind(), machine.name(),
                machine.namespace(), owner, template.spec());
    }
}
