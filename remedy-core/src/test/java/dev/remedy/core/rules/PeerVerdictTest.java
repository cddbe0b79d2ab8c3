package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.rules.PeerVerdict.Outcome;
import dev.remedy.core.rules.PeerVerdict.Reason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The poison-pill verdict from mixes of peer answers, with and without a quorum. */
class PeerVerdictTest {

    /** "H" healthy, "U" unhealthy, "E" API error, "N" no answer; batches separated by "/", "-" for none. */
    private static List<List<PeerAnswer>> batches(String spec) {
        List<List<PeerAnswer>> out = new ArrayList<>();
        if (spec.equals("-")) {
            return out;
        }
        for (String b : spec.split("/")) {
            out.add(b.chars().mapToObj(c -> switch (c) {
                case 'H' -> PeerAnswer.HEALTHY;
                case 'U' -> PeerAnswer.UNHEALTHY;
                case 'E' -> PeerAnswer.API_ERROR;
                case 'N' -> PeerAnswer.NO_ANSWER;
                default -> throw new IllegalArgumentException(b);
            }).toList());
        }
        return out;
    }

    @ParameterizedTest(name = "[{index}] peers={0} quorum={1} answers={2} -> {3} {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # peers | quorum | batches           | outcome        | reason                  | answers used
            0       | 1      | -                 | HEALTHY        | NO_PEERS                | 0
            5       | 1      | -                 | ASK_NEXT_BATCH | NEED_MORE_ANSWERS       | 0
            1       | 1      | H                 | HEALTHY        | PEER_SAYS_HEALTHY       | 1
            1       | 1      | U                 | UNHEALTHY      | PEERS_SAY_UNHEALTHY     | 1
            1       | 1      | E                 | HEALTHY        | CONTROL_PLANE_SUSPECTED | 1
            1       | 1      | N                 | UNHEALTHY      | ISOLATED                | 1
            3       | 1      | UUU               | UNHEALTHY      | PEERS_SAY_UNHEALTHY     | 3
            3       | 1      | UUH               | HEALTHY        | PEER_SAYS_HEALTHY       | 3
            3       | 1      | NNH               | HEALTHY        | PEER_SAYS_HEALTHY       | 3
            9       | 1      | UN/HH             | UNHEALTHY      | PEERS_SAY_UNHEALTHY     | 2
            9       | 1      | EN/NE/H           | HEALTHY        | PEER_SAYS_HEALTHY       | 5
            9       | 1      | NN/NN/NN/NN/N     | UNHEALTHY      | ISOLATED                | 9
            9       | 1      | NN/NN/NN/NN       | ASK_NEXT_BATCH | NEED_MORE_ANSWERS       | 8
            9       | 1      | EE/EN/EN/NN/N     | UNHEALTHY      | NO_PEER_VOUCHES         | 9
            9       | 1      | EE/EE/E           | HEALTHY        | CONTROL_PLANE_SUSPECTED | 5
            9       | 1      | EE/EE/N           | ASK_NEXT_BATCH | NEED_MORE_ANSWERS       | 5
            9       | 1      | EE/EE/NE          | HEALTHY        | CONTROL_PLANE_SUSPECTED | 6
            4       | 1      | EE/NN             | UNHEALTHY      | NO_PEER_VOUCHES         | 4
            4       | 1      | EE/E              | HEALTHY        | CONTROL_PLANE_SUSPECTED | 3
            10      | 1      | EEEEEU            | UNHEALTHY      | PEERS_SAY_UNHEALTHY     | 6
            10      | 1      | EEEEEE            | HEALTHY        | CONTROL_PLANE_SUSPECTED | 6
            10      | 1      | EEEEEH            | HEALTHY        | PEER_SAYS_HEALTHY       | 6
            10      | 2      | U/N/U             | UNHEALTHY      | PEERS_SAY_UNHEALTHY     | 3
            10      | 2      | U/N/H             | HEALTHY        | PEER_SAYS_HEALTHY       | 3
            10      | 3      | UU/UU             | UNHEALTHY      | PEERS_SAY_UNHEALTHY     | 4
            10      | 3      | UU                | ASK_NEXT_BATCH | NEED_MORE_ANSWERS       | 2
            3       | 3      | UU/N              | UNHEALTHY      | NO_PEER_DISAGREES       | 3
            3       | 5      | U/U/U             | UNHEALTHY      | NO_PEER_DISAGREES       | 3
            5       | 3      | U/E/E/E/N         | HEALTHY        | CONTROL_PLANE_SUSPECTED | 4
            5       | 2      | U/NN/NN           | UNHEALTHY      | NO_PEER_DISAGREES       | 5
            2       | 2      | UH                | HEALTHY        | PEER_SAYS_HEALTHY       | 2
            """)
    @DisplayName("each mix of answers, asked batch by batch, gives the verdict of its row")
    void verdictTable(int peers, int quorum, String spec, Outcome outcome, Reason reason, int used) {
        PeerVerdict.Result r = PeerVerdict.evaluate(batches(spec), peers, quorum);
        assertThat(r.outcome()).isEqualTo(outcome);
        assertThat(r.reason()).isEqualTo(reason);
        assertThat(r.tally().total()).as("answers the verdict rests on").isEqualTo(used);
    }

    @Test
    @DisplayName("any single healthy answer wins against any number of other answers")
    void healthyWins() {
        for (int u = 0; u < 5; u++) {
            for (int e = 0; e < 5; e++) {
                for (int n = 0; n < 5; n++) {
                    PeerTally t = new PeerTally(1, u, e, n);
                    assertThat(PeerVerdict.decide(t, t.total() + 3, 1 + u).outcome()).isEqualTo(Outcome.HEALTHY);
                }
            }
        }
    }

    @Test
    @DisplayName("exactly half of the peers with API errors is not a majority; one more is")
    void apiErrorMajorityIsStrict() {
        assertThat(PeerVerdict.decide(new PeerTally(0, 0, 5, 0), 10, 1).outcome()).isEqualTo(Outcome.ASK_NEXT_BATCH);
        assertThat(PeerVerdict.decide(new PeerTally(0, 0, 5, 5), 10, 1).reason()).isEqualTo(Reason.NO_PEER_VOUCHES);
        assertThat(PeerVerdict.decide(new PeerTally(0, 0, 6, 0), 10, 1).reason())
                .isEqualTo(Reason.CONTROL_PLANE_SUSPECTED);
        assertThat(PeerVerdict.decide(new PeerTally(0, 0, 50, 0), 99, 1).outcome()).isEqualTo(Outcome.HEALTHY);
        assertThat(PeerVerdict.decide(new PeerTally(0, 0, 49, 0), 99, 1).outcome()).isEqualTo(Outcome.ASK_NEXT_BATCH);
    }

    @Test
    @DisplayName("once every peer is asked the verdict is never 'ask again'; with peers left it is only that or final")
    void exhaustionAlwaysDecides() {
        for (int peers = 1; peers <= 6; peers++) {
            for (int h = 0; h <= peers; h++) {
                for (int u = 0; u + h <= peers; u++) {
                    for (int e = 0; e + u + h <= peers; e++) {
                        PeerTally t = new PeerTally(h, u, e, peers - h - u - e);
                        for (int q = 1; q <= 4; q++) {
                            assertThat(PeerVerdict.decide(t, peers, q).outcome()).as("%s of %d, q=%d", t, peers, q)
                                    .isNotEqualTo(Outcome.ASK_NEXT_BATCH);
                        }
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("batches after the decision are not read")
    void stopsAtDecision() {
        PeerVerdict.Result r = PeerVerdict.evaluate(batches("U/H/H"), 3, 1);
        assertThat(r.tally()).isEqualTo(new PeerTally(0, 1, 0, 0));
    }

    @Test
    @DisplayName("invalid inputs are refused with the field named")
    void validation() {
        assertThatThrownBy(() -> PeerVerdict.decide(PeerTally.EMPTY, 3, 0)).hasMessageContaining("quorum");
        assertThatThrownBy(() -> PeerVerdict.decide(PeerTally.EMPTY, -1, 1)).hasMessageContaining("peerCount");
        assertThatThrownBy(() -> PeerVerdict.decide(new PeerTally(1, 1, 0, 0), 1, 1)).hasMessageContaining("tally");
        assertThatThrownBy(() -> new PeerTally(0, -1, 0, 0)).hasMessageContaining("unhealthy");
        assertThat(PeerTally.of(Arrays.asList(PeerAnswer.values()))).isEqualTo(new PeerTally(1, 1, 1, 1));
        assertThat(new PeerTally(1, 2, 3, 4).plus(new PeerTally(1, 1, 1, 1))).isEqualTo(new PeerTally(2, 3, 4, 5));
    }
}
