package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.FailureDomainRule.Answer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A node whose failure domain is cut off as a whole stays up; a node cut off alone does not. */
class FailureDomainRuleTest {

    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String RACK = "topology.remedy.dev/rack";
    private static final Map<String, String> SELF = Map.of(RACK, "r1");

    private static Answer in(String name, String rack, PeerAnswer answer) {
        return new Answer(name, Map.of(RACK, rack), answer);
    }

    private static final PeerVerdict.Result UNHEALTHY = new PeerVerdict.Result(PeerVerdict.Outcome.UNHEALTHY,
            PeerVerdict.Reason.NO_PEER_VOUCHES, PeerTally.EMPTY);

    @Test
    @DisplayName("the rack answers API errors and nobody outside answers: the rack is cut off, the node stays up")
    void wholeRackCutOff() {
        List<Answer> answers = List.of(in("a", "r2", PeerAnswer.NO_ANSWER), in("b", "r3", PeerAnswer.NO_ANSWER),
                in("c", "r1", PeerAnswer.API_ERROR), in("d", "r1", PeerAnswer.NO_ANSWER));
        assertThat(FailureDomainRule.cutOff(SELF, answers))
                .contains(new FailureDomainRule.CutOff(RACK, "r1", 1, 2));
        assertThat(FailureDomainRule.apply(UNHEALTHY, SELF, answers).outcome()).isEqualTo(PeerVerdict.Outcome.HEALTHY);
        assertThat(FailureDomainRule.apply(UNHEALTHY, SELF, answers).reason())
                .isEqualTo(PeerVerdict.Reason.DOMAIN_CUT_OFF);
    }

    @Test
    @DisplayName("nobody answers at all, inside or outside: the node alone is isolated, the rule does not apply")
    void isolatedNodeStillResets() {
        List<Answer> answers = List.of(in("a", "r2", PeerAnswer.NO_ANSWER), in("c", "r1", PeerAnswer.NO_ANSWER));
        assertThat(FailureDomainRule.cutOff(SELF, answers)).isEmpty();
        assertThat(FailureDomainRule.apply(UNHEALTHY, SELF, answers)).isSameAs(UNHEALTHY);
    }

    @Test
    @DisplayName("a peer outside answers (even an API error): the domain is not cut off")
    void outsideAnswerMeansNotCutOff() {
        assertThat(FailureDomainRule.cutOff(SELF, List.of(in("a", "r2", PeerAnswer.API_ERROR),
                in("c", "r1", PeerAnswer.API_ERROR)))).isEmpty();
    }

    @Test
    @DisplayName("a peer inside reads the API server (says unhealthy): the domain is not cut off")
    void insideJudgingPeerMeansNotCutOff() {
        assertThat(FailureDomainRule.cutOff(SELF, List.of(in("a", "r2", PeerAnswer.NO_ANSWER),
                in("c", "r1", PeerAnswer.UNHEALTHY), in("d", "r1", PeerAnswer.API_ERROR)))).isEmpty();
    }

    @Test
    @DisplayName("every peer is in the node's domain: there is no outside, so no cut-off to tell")
    void noOutsideNoRule() {
        assertThat(FailureDomainRule.cutOff(SELF, List.of(in("c", "r1", PeerAnswer.API_ERROR)))).isEmpty();
    }

    @Test
    @DisplayName("a node without a domain label never invokes the rule")
    void unlabelledNode() {
        assertThat(FailureDomainRule.cutOff(Map.of(), List.of(in("a", "r2", PeerAnswer.NO_ANSWER),
                in("c", "r1", PeerAnswer.API_ERROR)))).isEmpty();
    }

    @Test
    @DisplayName("a zone cut off is found under the zone label although the peers inside are in other racks")
    void zoneLevel() {
        Map<String, String> self = Map.of(ZONE, "z1", RACK, "r1");
        List<Answer> answers = List.of(new Answer("a", Map.of(ZONE, "z2", RACK, "r9"), PeerAnswer.NO_ANSWER),
                new Answer("b", Map.of(ZONE, "z1", RACK, "r2"), PeerAnswer.API_ERROR));
        assertThat(FailureDomainRule.cutOff(self, answers)).map(FailureDomainRule.CutOff::label).contains(ZONE);
    }

    @Test
    @DisplayName("a healthy verdict is returned as it is")
    void healthyUntouched() {
        PeerVerdict.Result healthy = new PeerVerdict.Result(PeerVerdict.Outcome.HEALTHY,
                PeerVerdict.Reason.PEER_SAYS_HEALTHY, PeerTally.EMPTY);
        assertThat(FailureDomainRule.apply(healthy, SELF, List.of())).isSameAs(healthy);
    }
}
