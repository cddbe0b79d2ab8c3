package dev.remedy.core.rules;

import java.util.List;
import java.util.Objects;

/**
 * The poison-pill verdict of a node that lost the API server, from its peers' answers (after medik8s Self Node
 * Remediation), with an optional quorum. Rules, in this order, over the answers of every batch asked so far:
 * <ol>
 *   <li>No peer at all (single-node cluster): {@link Outcome#HEALTHY}; the node cannot be fenced by peers.</li>
 *   <li>Any {@link PeerAnswer#HEALTHY}: healthy. A peer that reads the API server and sees no remediation
 *       outweighs every other answer.</li>
 *   <li>At least {@code quorum} {@link PeerAnswer#UNHEALTHY}: unhealthy, reboot. With the default quorum of 1 a
 *       single such answer decides, as in medik8s; in other words, when every answer that judges the node says
 *       unhealthy, the node is unhealthy.</li>
 *   <li>More than half of <em>all</em> peers answered {@link PeerAnswer#API_ERROR}: healthy; the control plane is
 *       suspected, not this node, and nobody can release its workloads meanwhile.</li>
 *   <li>Peers left to ask: {@link Outcome#ASK_NEXT_BATCH}. This is the case of a batch of errors only, or of fewer
 *       unhealthy answers than the quorum.</li>
 *   <li>Every peer asked, some said unhealthy but fewer than the quorum, none healthy: unhealthy. The quorum is
 *       capped at the peers that could judge, because the cluster has declared the node unhealthy and will release
 *       its workloads after the safe time; staying up then would run them twice.</li>
 *   <li>Every peer asked, only errors: unhealthy; {@link Reason#ISOLATED} if nobody answered at all.</li>
 * </ol>
 */
public final class PeerVerdict {

    /** The default quorum: one unhealthy answer is enough, as in medik8s. */
    public static final int DEFAULT_QUORUM = 1;

    private PeerVerdict() {
    }

    /** What the node does. */
    public enum Outcome {
        /** Keep running (and keep feeding the watchdog). */
        HEALTHY,
        /** Reboot: stop feeding the watchdog. */
        UNHEALTHY,
        /** Ask the next batch of peers. */
        ASK_NEXT_BATCH
    }

    /** Why. */
    public enum Reason {
        /** The cluster has no other node. */
        NO_PEERS,
        /** A peer answered healthy. */
        PEER_SAYS_HEALTHY,
        /** More than half of all peers cannot reach the API server. */
        CONTROL_PLANE_SUSPECTED,
        /** The quorum of unhealthy answers was reached. */
        PEERS_SAY_UNHEALTHY,
        /** Every peer was asked; fewer than the quorum said unhealthy and none healthy. */
        NO_PEER_DISAGREES,
        /** Every peer was asked; only errors, some of them answers. */
        NO_PEER_VOUCHES,
        /** Every peer was asked; none answered. */
        ISOLATED,
        /** Not decided yet; peers remain. */
        NEED_MORE_ANSWERS,
        /**
         * The node's failure domain is cut off as a whole, so it stays up although the rules above say unhealthy
         * ({@link FailureDomainRule}).
         */
        DOMAIN_CUT_OFF
    }

    /**
     * A verdict.
     *
     * @param outcome what to do
     * @param reason  why
     * @param tally   the answers it rests on
     */
    public record Result(Outcome outcome, Reason reason, PeerTally tally) {
        /** Validates the fields. */
        public Result {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(tally, "tally");
        }
    }

    /**
     * Decides from the answers so far.
     *
     * @param tally     the answers of every batch asked so far
     * @param peerCount how many peers the node has (the cluster minus itself); at least {@code tally.total()}
     * @param quorum    how many unhealthy answers decide a reboot; at least 1
     * @return the verdict
     */
    public static Result decide(PeerTally tally, int peerCount, int quorum) {
        Objects.requireNonNull(tally, "tally");
        if (peerCount < 0) {
            throw new IllegalArgumentException("peerCount: must be 0 or more, was " + peerCount);
        }
        if (quorum < 1) {
            throw new IllegalArgumentException("quorum: must be at least 1, was " + quorum);
        }
        if (tally.total() > peerCount) {
            throw new IllegalArgumentException("tally: " + tally.total() + " answers from " + peerCount
                    + " peers; each peer is asked at most once");
        }
        if (peerCount == 0) {
            return new Result(Outcome.HEALTHY, Reason.NO_PEERS, tally);
        }
        if (tally.healthy() > 0) {
            return new Result(Outcome.HEALTHY, Reason.PEER_SAYS_HEALTHY, tally);
        }
        if (tally.unhealthy() >= quorum) {
            return new Result(Outcome.UNHEALTHY, Reason.PEERS_SAY_UNHEALTHY, tally);
        }
        if ((long) tally.apiErrors() * 2 > peerCount) {
            return new Result(Outcome.HEALTHY, Reason.CONTROL_PLANE_SUSPECTED, tally);
        }
        if (tally.total() < peerCount) {
            return new Result(Outcome.ASK_NEXT_BATCH, Reason.NEED_MORE_ANSWERS, tally);
        }
        if (tally.unhealthy() > 0) {
            return new Result(Outcome.UNHEALTHY, Reason.NO_PEER_DISAGREES, tally);
        }
        if (tally.apiErrors() > 0) {
            return new Result(Outcome.UNHEALTHY, Reason.NO_PEER_VOUCHES, tally);
        }
        return new Result(Outcome.UNHEALTHY, Reason.ISOLATED, tally);
    }

    /**
     * Folds batches of answers in order and stops at the first decision.
     *
     * @param batches   the answers of each batch, in the order asked
     * @param peerCount how many peers the node has; at least the number of answers
     * @param quorum    how many unhealthy answers decide a reboot; at least 1
     * @return the first verdict that is not {@link Outcome#ASK_NEXT_BATCH}, else the last one
     */
    public static Result evaluate(List<List<PeerAnswer>> batches, int peerCount, int quorum) {
        Objects.requireNonNull(batches, "batches");
        PeerTally tally = PeerTally.EMPTY;
        Result result = decide(tally, peerCount, quorum);
        for (List<PeerAnswer> batch : batches) {
            if (result.outcome() != Outcome.ASK_NEXT_BATCH) {
                break;
            }
            tally = tally.plus(PeerTally.of(batch));
            result = decide(tally, peerCount, quorum);
        }
        return result;
    }
}
