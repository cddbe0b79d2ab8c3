package dev.remedy.fence.kube.remediation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.remediation.internal.RemediationConditions.Reason;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** FenceAgentsRemediation's condition updates. */
@DisplayName("RemediationConditions")
class RemediationConditionsTest {

    private static final Instant T0 = Instant.parse("2026-11-26T01:00:00.123Z");
    private static final Instant T1 = T0.plusSeconds(10);
    private static final Instant T2 = T0.plusSeconds(20);

    @Test
    @DisplayName("started, then the agent succeeded, then finished: each condition's lastTransitionTime moves only "
            + "when its status changes, and a condition whose status stays keeps its reason, as in FAR")
    void sequence() {
        List<Condition> conditions = new ArrayList<>();

        assertThat(RemediationConditions.apply(conditions, Reason.RemediationStarted, "started", T0)).isTrue();
        assertThat(RemediationConditions.apply(conditions, Reason.RemediationStarted, "started", T1)).isFalse();
        RemediationConditions.apply(conditions, Reason.FenceAgentSucceeded, "off", T1);
        RemediationConditions.apply(conditions, Reason.RemediationFinishedSuccessfully, "done", T2);

        assertThat(conditions).extracting(c -> c.getType() + "=" + c.getStatus() + "/" + c.getReason() + "@"
                + c.getLastTransitionTime()).containsExactly(
                "Processing=False/RemediationFinishedSuccessfully@2026-11-26T01:00:20Z",
                "FenceAgentActionSucceeded=True/FenceAgentSucceeded@2026-11-26T01:00:10Z",
                "Succeeded=True/RemediationFinishedSuccessfully@2026-11-26T01:00:20Z");
    }

    @Test
    @DisplayName("set keeps lastTransitionTime when only the message changes (a held remediation's rule)")
    void messageOnly() {
        List<Condition> conditions = new ArrayList<>();
        RemediationConditions.set(conditions, "Processing", "True", "RemediationStarted", "a", T0);

        assertThat(RemediationConditions.set(conditions, "Processing", "True", "RemediationStarted", "b", T1))
                .isTrue();
        assertThat(RemediationConditions.set(conditions, "Processing", "True", "RemediationStarted", "b", T2))
                .isFalse();
        assertThat(conditions).singleElement().satisfies(c -> {
            assertThat(c.getMessage()).isEqualTo("b");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-26T01:00:00Z");
        });
    }
}
