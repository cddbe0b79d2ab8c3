package dev.remedy.fence.kube.remediation.internal;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code core/v1} Events about remediation resources, as the medik8s remediators write them: reason
 * {@code RemediationStarted}, {@code RemediationStopped}, {@code RemediationFinished} or {@code RemediationCannotStart},
 * message prefixed {@code [remediation] }, in the resource's namespace. A failed write is logged, never thrown.
 */
public final class RemediationEvents {

    /** The remediation started (the node's fence flow was decided). */
    public static final String STARTED = "RemediationStarted";
    /** The remediation was stopped (NodeHealthCheck's timeout, or deletion). */
    public static final String STOPPED = "RemediationStopped";
    /** The remediation ended, successfully or not. */
    public static final String FINISHED = "RemediationFinished";
    /** The remediation cannot start (now: storm protection; or at all: invalid spec). */
    public static final String CANNOT_START = "RemediationCannotStart";

    private static final Logger LOG = LoggerFactory.getLogger(RemediationEvents.class);
    private static final String PREFIX = "[remediation] ";

    private final KubernetesClient client;
    private final String component;

    /** Events written with {@code client}, reported by {@code component}. */
    public RemediationEvents(KubernetesClient client, String component) {
        this.client = client;
        this.component = component;
    }

    /** Records a {@code Normal} ({@code warning} false) or {@code Warning} Event about {@code about}. */
    public void record(HasMetadata about, boolean warning, String reason, String message, Instant now) {
        String time = RemediationConditions.rfc3339(now);
        Event event = new EventBuilder().withNewMetadata()
                .withName(about.getMetadata().getName() + "." + Long.toHexString(now.toEpochMilli())
                        + Integer.toHexString(reason.hashCode() & 0xfff))
                .withNamespace(about.getMetadata().getNamespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion(about.getApiVersion()).withKind(about.getKind())
                .withName(about.getMetadata().getName()).withNamespace(about.getMetadata().getNamespace())
                .withUid(about.getMetadata().getUid()).endInvolvedObject()
                .withType(warning ? "Warning" : "Normal").withReason(reason).withMessage(PREFIX + message)
                .withNewSource().withComponent(component).endSource().withReportingComponent(component)
                .withFirstTimestamp(time).withLastTimestamp(time).withCount(1).build();
        try {
            client.v1().events().inNamespace(about.getMetadata().getNamespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            LOG.warn("could not record the {} Event {} about {} {}/{}: {}", reason.toLowerCase(Locale.ROOT), message,
                    about.getKind(), about.getMetadata().getNamespace(), about.getMetadata().getName(), e.getMessage());
        }
    }
}
