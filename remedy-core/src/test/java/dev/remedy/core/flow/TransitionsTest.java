package dev.remedy.core.flow;

import static dev.remedy.core.flow.FenceState.DONE;
import static dev.remedy.core.flow.FenceState.ERROR;
import static dev.remedy.core.flow.FenceState.FINAL;
import static dev.remedy.core.flow.FenceState.NEW;
import static dev.remedy.core.flow.FenceState.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The explicit legal-transition table of the Node remedy design, checked over all 25 (from, to) pairs. */
class TransitionsTest {

    /** The design: NEW→RUNNING/ERROR/FINAL, RUNNING→DONE/ERROR/FINAL, DONE→FINAL/ERROR, ERROR→NEW/FINAL, same state. */
    private static final Map<FenceState, Set<FenceState>> DESIGN = Map.of(
            NEW, EnumSet.of(NEW, RUNNING, ERROR, FINAL),
            RUNNING, EnumSet.of(RUNNING, DONE, ERROR, FINAL),
            DONE, EnumSet.of(DONE, FINAL, ERROR),
            ERROR, EnumSet.of(ERROR, NEW, FINAL),
            FINAL, EnumSet.of(FINAL));

    static Stream<Arguments> allPairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (FenceState from : FenceState.values()) {
            for (FenceState to : FenceState.values()) {
                pairs.add(Arguments.of(from, to, DESIGN.get(from).contains(to)));
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{0} -> {1} legal: {2}")
    @MethodSource("allPairs")
    @DisplayName("every (from, to) pair is legal exactly when the design allows it, and check() agrees")
    void everyPair(FenceState from, FenceState to, boolean legal) {
        assertThat(Transitions.isLegal(from, to)).isEqualTo(legal);
        if (legal) {
            assertThatCode(() -> Transitions.check("n1", from, to)).doesNotThrowAnyException();
        } else {
            IllegalTransitionException e = catchThrowableOfType(IllegalTransitionException.class,
                    () -> Transitions.check("worker-7", from, to));
            assertThat(e).isNotNull();
            assertThat(e.node()).isEqualTo("worker-7");
            assertThat(e.from()).isEqualTo(from);
            assertThat(e.to()).isEqualTo(to);
            assertThat(e.getMessage()).contains("worker-7").contains(from.toString()).contains(to.toString());
        }
    }

    @Test
    @DisplayName("the table covers exactly 25 pairs, of which 15 are legal and 10 illegal")
    void counts() {
        long legal = allPairs().filter(a -> (boolean) a.get()[2]).count();
        assertThat(allPairs().count()).isEqualTo(25);
        assertThat(legal).isEqualTo(15);
        for (FenceState from : FenceState.values()) {
            assertThat(Transitions.from(from)).as("legal from %s", from).isEqualTo(DESIGN.get(from));
        }
    }

    @Test
    @DisplayName("FINAL is terminal: it only allows staying FINAL")
    void finalIsTerminal() {
        assertThat(Transitions.from(FINAL)).containsExactly(FINAL);
        IllegalTransitionException e = catchThrowableOfType(IllegalTransitionException.class,
                () -> Transitions.check("n9", FINAL, NEW));
        assertThat(e.getMessage()).contains("n9").contains("FINAL -> NEW");
    }

    @Test
    @DisplayName("every stage belongs to a state, and FINISHED and FAILED are the only FINAL and ERROR stages")
    void stagesMapToStates() {
        for (Stage stage : Stage.values()) {
            assertThat(Stage.fromCode(stage.code())).isEqualTo(stage);
        }
        assertThat(Stream.of(Stage.values()).filter(s -> s.state() == FINAL)).containsExactly(Stage.FINISHED);
        assertThat(Stream.of(Stage.values()).filter(s -> s.state() == ERROR)).containsExactly(Stage.FAILED);
        assertThat(Stage.HOLD.state()).isEqualTo(NEW);
        assertThat(Stage.RACE_DELAY.state()).isEqualTo(RUNNING);
        assertThat(Stage.AWAIT_READY.state()).isEqualTo(DONE);
    }
}
