package dev.remedy.fence.kube.external.internal;

import io.fabric8.kubernetes.api.Pluralize;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Locale;

/** The API coordinates of the objects remedy reads and writes without model classes. */
public final class Kinds {

    /** Jobs, {@code batch/v1}. */
    public static final ResourceDefinitionContext JOB = namespaced("batch/v1", "Job");

    private Kinds() {
    }

    /**
     * A namespaced kind of {@code apiVersion}. The resource (plural) follows Kubernetes' convention, the lower-case
     * kind made plural ({@code Metal3Remediation} → {@code metal3remediations}), which every CRD of the remediation
     * contracts uses; discovery is not asked, so remedy needs no permission on it.
     */
    public static ResourceDefinitionContext namespaced(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        return new ResourceDefinitionContext.Builder()
                .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                .withVersion(apiVersion.substring(slash + 1)).withKind(kind)
                .withPlural(Pluralize.toPlural(kind.toLowerCase(Locale.ROOT))).withNamespaced(true).build();
    }

    /** Whether {@code context} is {@code batch/v1} Job. */
    public static boolean isJob(ResourceDefinitionContext context) {
        return "batch".equals(context.getGroup()) && "Job".equals(context.getKind());
    }
}
