package dev.remedy.fence.kube.operator.internal;

import dev.remedy.core.policy.ExternalRemediations;
import dev.remedy.core.policy.Remedy;
import dev.remedy.core.policy.RemedyRunner.Progress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * External remedies (a template another remediator runs) in the operator: not instantiated yet, so each one
 * reports {@link Progress#FAILED} at once and the policy escalates to its next remedy; a warning names the remedy
 * once per node. Instantiating templates as NodeHealthCheck does is the remediation-contracts work that follows.
 */
public final class ExternalRemediesLater implements ExternalRemediations {

    private static final Logger LOG = LoggerFactory.getLogger(ExternalRemediesLater.class);

    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    @Override
    public void create(String node, Remedy.External remedy) {
        if (warned.add(node + "/" + remedy.name())) {
            LOG.warn("node {}: remedy {} is an external remediation template, which this operator does not run yet;"
                    + " escalating to the policy's next remedy", node, remedy.name());
        }
    }

    @Override
    public Progress progress(String node, Remedy.External remedy) {
        return Progress.FAILED;
    }

    @Override
    public void delete(String node, Remedy.External remedy) {
        warned.remove(node + "/" + remedy.name());
    }
}
