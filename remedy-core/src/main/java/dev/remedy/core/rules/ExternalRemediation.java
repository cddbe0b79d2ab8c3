package dev.remedy.core.rules;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Instantiating an external remediation template for one target, as the health checkers that define the contract do:
 * <ul>
 *   <li>for a Cluster API Machine, as MachineHealthCheck: named and namespaced like the Machine, annotations
 *       {@value #CLONED_FROM_NAME} and {@value #CLONED_FROM_GROUP_KIND}, label {@value #CLUSTER_NAME_LABEL}, and one
 *       owner reference to the Machine ({@code controller} unset, as MachineHealthCheck writes it);</li>
 *   <li>for a plain node, as medik8s NodeHealthCheck: named like the node (or {@code generateName: <node>-} when the
 *       template supports multiple templates) in the template's namespace, annotations {@value #NODE_NAME_ANNOTATION}
 *       and {@value #TEMPLATE_NAME_ANNOTATION}, label {@value #CONTROL_PLANE_LABEL} on control-plane nodes, and no
 *       owner reference (NodeHealthCheck's owner is the NodeHealthCheck object, which remedy has no counterpart of;
 *       a Node owner would let the garbage collector delete the object mid-remediation when the remediator deletes or
 *       re-creates the Node).</li>
 * </ul>
 * Both take the template's kind without {@code Template}, its apiVersion and its {@code spec.template.spec}.
 */
public final class ExternalRemediation {

    /** Machine path: the template's name. */
    public static final String CLONED_FROM_NAME = "cluster.x-k8s.io/cloned-from-name";
    /** Machine path: the template's {@code Kind.group}. */
    public static final String CLONED_FROM_GROUP_KIND = "cluster.x-k8s.io/cloned-from-groupkind";
    /** Machine path: the Machine's cluster. */
    public static final String CLUSTER_NAME_LABEL = "cluster.x-k8s.io/cluster-name";
    /** Node path: the node the object is for; remediators read it before the object's name. */
    public static final String NODE_NAME_ANNOTATION = "remediation.medik8s.io/node-name";
    /** Node path: the template the object was made from. */
    public static final String TEMPLATE_NAME_ANNOTATION = "remediation.medik8s.io/template-name";
    /** On a template: {@code "true"} when its remediator accepts several objects for one node. */
    public static final String MULTIPLE_TEMPLATES_ANNOTATION = "remediation.medik8s.io/multiple-templates-support";
    /** Node path: the label, with an empty value, of objects made for control-plane nodes. */
    public static final String CONTROL_PLANE_LABEL = "remediation.medik8s.io/isControlPlaneNode";

    private ExternalRemediation() {
    }

    /**
     * Makes the remediation object for a Cluster API Machine.
     *
     * @param template    the remediation template
     * @param machine     the unhealthy machine
     * @param clusterName the machine's cluster ({@code spec.clusterName})
     * @return an object of the template's object kind, named and namespaced as the machine, with the template's spec,
     *         the cloned-from annotations, the cluster-name label and an owner reference to the machine
     */
    public static RemediationRequest instantiate(RemediationTemplate template, MachineRef machine,
                                                 String clusterName) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(machine, "machine");
        Texts.requireText(clusterName, "clusterName");
        OwnerReference owner = new OwnerReference(machine.apiVersion(), machine.kind(), machine.name(), machine.uid(),
                false);
        return new RemediationRequest(template.apiVersion(), template.objectKind(), machine.name(), false,
                machine.namespace(), Map.of(CLUSTER_NAME_LABEL, clusterName),
                Map.of(CLONED_FROM_NAME, template.name(), CLONED_FROM_GROUP_KIND, template.groupKind()),
                List.of(owner), template.spec());
    }

    /**
     * Makes the remediation object for a node that belongs to no Machine.
     *
     * @param template the remediation template
     * @param node     the unhealthy node
     * @return an object of the template's object kind in the template's namespace, named like the node (a
     *         {@code <node>-} prefix with {@code generateName} when the template supports multiple templates), with
     *         the node-name and template-name annotations and, on a control-plane node, the control-plane label
     */
    public static RemediationRequest instantiate(RemediationTemplate template, NodeRef node) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(node, "node");
        boolean generate = template.multipleTemplates();
        return new RemediationRequest(template.apiVersion(), template.objectKind(),
                generate ? node.name() + "-" : node.name(), generate, template.namespace(),
                node.controlPlane() ? Map.of(CONTROL_PLANE_LABEL, "") : Map.of(),
                Map.of(NODE_NAME_ANNOTATION, node.name(), TEMPLATE_NAME_ANNOTATION, template.name()), List.of(),
                template.spec());
    }
}
