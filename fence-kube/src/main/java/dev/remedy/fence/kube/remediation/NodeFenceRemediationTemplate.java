package dev.remedy.fence.kube.remediation;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The {@code NodeFenceRemediationTemplate} custom resource ({@code remedy.dev/v1alpha1}, namespaced, plural
 * {@code nodefenceremediationtemplates}, short name {@code nfrt}, status subresource): what a NodeHealthCheck's
 * {@code remediationTemplate} (or a MachineHealthCheck's template reference) names. The health checker creates a
 * {@link NodeFenceRemediation} whose spec is this template's {@code spec.template.spec}.
 *
 * <p>Give a template the annotation {@value #MULTIPLE_TEMPLATES} {@code "true"} to let NodeHealthCheck use it in
 * several escalation steps at once: it then creates the remediation with {@code generateName: <node>-}, and the
 * controller reads the node from the {@code remediation.medik8s.io/node-name} annotation.
 */
@Group(NodeFenceRemediation.GROUP)
@Version(NodeFenceRemediation.VERSION)
@Kind(NodeFenceRemediationTemplate.KIND)
@Plural(NodeFenceRemediationTemplate.PLURAL)
@Singular("nodefenceremediationtemplate")
@ShortNames("nfrt")
public class NodeFenceRemediationTemplate
        extends CustomResource<NodeFenceRemediationTemplate.Spec, NodeFenceRemediationStatus> implements Namespaced {

    /** The kind. */
    public static final String KIND = "NodeFenceRemediationTemplate";
    /** The plural, as in the resource's path. */
    public static final String PLURAL = "nodefenceremediationtemplates";
    /** The template annotation by which NodeHealthCheck knows it may create several remediations from it. */
    public static final String MULTIPLE_TEMPLATES = "remediation.medik8s.io/multiple-templates-support";

    private static final long serialVersionUID = 1L;

    /** An empty resource (for the client's deserializer). */
    public NodeFenceRemediationTemplate() {
        super();
    }

    @Override
    protected Spec initSpec() {
        return new Spec();
    }

    /** The template's spec: {@code template.spec} is the spec of the remediations made from it. */
    public static class Spec {
        private Template template = new Template();

        /** The template of the remediations. */
        public Template getTemplate() {
            return template;
        }

        /** Sets the template of the remediations. */
        public void setTemplate(Template template) {
            this.template = template;
        }
    }

    /** {@code spec.template}: the remediation's spec. */
    public static class Template {
        private NodeFenceRemediationSpec spec = new NodeFenceRemediationSpec();

        /** The spec every remediation made from the template gets. */
        public NodeFenceRemediationSpec getSpec() {
            return spec;
        }

        /** Sets the spec of the remediations. */
        public void setSpec(NodeFenceRemediationSpec spec) {
            this.spec = spec;
        }
    }
}
