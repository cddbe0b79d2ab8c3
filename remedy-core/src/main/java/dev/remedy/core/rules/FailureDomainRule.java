package dev.remedy.core.rules;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Storm protection's concentration rule on the node side of the poison-pill design: a node refuses to declare
 * itself unhealthy while its own failure domain is cut off as a whole. Remedy's addition to the design, in which a
 * rack that loses its uplink looks to each of its nodes like isolation, and every node of the rack resets.
 *
 * <p>A node's domain under one label key (zone, rack) is cut off as a whole when, among the peers it asked:
 * <ul>
 *   <li>at least one peer is outside the domain (another value of the label, or without it), and no peer outside
 *       answered at all ({@link PeerAnswer#NO_ANSWER} only); and</li>
 *   <li>at least one peer inside the domain answered, and every peer inside that answered cannot reach the API server
 *       either ({@link PeerAnswer#API_ERROR}; silent ones are allowed, a node of the rack may be down).</li>
 * </ul>
 * A node without the label, or alone in its domain, cannot tell its domain's failure from its own: the rule does not
 * apply. The rule is checked under each label key the node carries; one cut-off domain is enough.
 *
 * <p>The operator calls the same function for its check "would the node have reset?": it builds the answers the
 * node would have received from what it sees (peers in the node's domain whose agents stopped reporting answer
 * {@code API_ERROR} or {@code NO_ANSWER}, peers outside whose agents report answer what they would answer) and
 * refuses to assume a reset where {@link #cutOff} finds a domain.
 */
public final class FailureDomainRule {

    private FailureDomainRule() {
    }

    /**
     * One peer's answer, with the peer's failure domains.
     *
     * @param peer    the peer's node name
     * @param domains the peer's failure domains, label key to value (only the configured keys it carries)
     * @param answer  what it answered
     */
    public record Answer(String peer, Map<String, String> domains, PeerAnswer answer) {
        /** Validates and copies. */
        public Answer {
            Texts.requireText(peer, "peer");
            domains = Map.copyOf(domains);
            Objects.requireNonNull(answer, "answer");
        }
    }

    /**
     * A failure domain found cut off as a whole.
     *
     * @param label          the label key ({@code topology.kubernetes.io/zone})
     * @param value          the node's value of it ({@code eu-1a})
     * @param insideApiErrors how many peers inside answered that they cannot reach the API server
     * @param outsideSilent   how many peers outside were asked and did not answer
     */
    public record CutOff(String label, String value, int insideApiErrors, int outsideSilent) {
    }

    /**
     * The node's first failure domain that is cut off as a whole, in the order of {@code selfDomains}.
     *
     * @param selfDomains the asking node's failure domains, label key to value, in the settings' order
     * @param answers     the answers of every peer asked
     * @return the cut-off domain, or empty when none is (or the node carries no domain label)
     */
    public static Optional<CutOff> cutOff(Map<String, String> selfDomains, List<Answer> answers) {
        Objects.requireNonNull(selfDomains, "selfDomains");
        Objects.requireNonNull(answers, "answers");
        for (Map.Entry<String, String> domain : new LinkedHashMap<>(selfDomains).entrySet()) {
            int insideApiErrors = 0;
            int insideJudging = 0;
            int outsideSilent = 0;
            int outsideAnswered = 0;
            for (Answer a : answers) {
                boolean inside = domain.getValue().equals(a.domains().get(domain.getKey()));
                if (inside) {
                    if (a.answer() == PeerAnswer.API_ERROR) {
                        insideApiErrors++;
                    } else if (a.answer() != PeerAnswer.NO_ANSWER) {
                        insideJudging++;
                    }
                } else if (a.answer() == PeerAnswer.NO_ANSWER) {
                    outsideSilent++;
                } else {
                    outsideAnswered++;
                }
            }
            if (outsideSilent > 0 && outsideAnswered == 0 && insideApiErrors > 0 && insideJudging == 0) {
                return Optional.of(new CutOff(domain.getKey(), domain.getValue(), insideApiErrors, outsideSilent));
            }
        }
        return Optional.empty();
    }

    /**
     * The verdict once the rule is applied: an {@link PeerVerdict.Outcome#UNHEALTHY} verdict becomes
     * {@link PeerVerdict.Outcome#HEALTHY} with reason {@link PeerVerdict.Reason#DOMAIN_CUT_OFF} when the node's
     * domain is cut off; any other verdict is returned as it is.
     *
     * @param verdict     the verdict of {@link PeerVerdict}
     * @param selfDomains the asking node's failure domains
     * @param answers     the answers of every peer asked
     */
    public static PeerVerdict.Result apply(PeerVerdict.Result verdict, Map<String, String> selfDomains,
            List<Answer> answers) {
        Objects.requireNonNull(verdict, "verdict");
        if (verdict.outcome() != PeerVerdict.Outcome.UNHEALTHY || cutOff(selfDomains, answers).isEmpty()) {
            return verdict;
        }
        return new PeerVerdict.Result(PeerVerdict.Outcome.HEALTHY, PeerVerdict.Reason.DOMAIN_CUT_OFF,
                verdict.tally());
    }
}
