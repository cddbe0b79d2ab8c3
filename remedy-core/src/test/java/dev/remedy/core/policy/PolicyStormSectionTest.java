package dev.remedy.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.storm.UnhealthyRange;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The storm section reads the anchors' rules too: Cluster API's unhealthyRange and oVirt's per-host quiet time. */
class PolicyStormSectionTest {

    private static final String POLICY = """
            policies:
              - name: workers
                unhealthyConditions: [{type: Ready, status: "False", duration: 5m}]
                escalation: [{name: fence, fence: {}, timeout: 10m}]
                storm: {maxUnhealthy: 40%%, unhealthyRange: "%s", nodeCooldown: %s}
            """;

    @Test
    @DisplayName("unhealthyRange and nodeCooldown are read from a policy's storm section")
    void readsAnchorRules() {
        Policy policy = new PolicyLoader().parse(POLICY.formatted("[3-5]", "180s"), "p.yaml").policies().get(0);
        assertThat(policy.storm().unhealthyRange()).contains(new UnhealthyRange(3, 5));
        assertThat(policy.storm().nodeCooldown()).isEqualTo(Duration.ofSeconds(180));
    }

    @Test
    @DisplayName("a malformed unhealthyRange is refused with its path and the expected form")
    void refusesBadRange() {
        assertThatThrownBy(() -> new PolicyLoader().parse(POLICY.formatted("3-5", "180s"), "p.yaml"))
                .isInstanceOf(PolicyConfigurationException.class)
                .hasMessageContaining("p.yaml").hasMessageContaining("storm").hasMessageContaining("[3-5]");
    }
}
