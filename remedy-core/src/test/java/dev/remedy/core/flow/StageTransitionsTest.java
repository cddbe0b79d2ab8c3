package dev.remedy.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The stage table of {@link Transitions}: it refines the design's state table, and it forbids the moves that would
 * break the safety rules. Every transition the flow takes in the other tests is checked against it by the flow.
 */
class StageTransitionsTest {

    @Test
    @DisplayName("every stage pair of the table is legal between the stages' states")
    void refinesTheStateTable() {
        for (Stage from : Stage.values()) {
            for (Stage to : Transitions.from(from)) {
                assertThat(Transitions.isLegal(from.state(), to.state())).as("%s -> %s", from, to).isTrue();
            }
        }
    }

    @Test
    @DisplayName("every live stage can be force-stopped, and FINISHED is terminal")
    void forceStopAndTerminal() {
        for (Stage stage : Stage.values()) {
            assertThat(Transitions.isLegal(stage, Stage.FINISHED)).as(stage.name()).isEqualTo(stage != Stage.FINISHED);
        }
        assertThat(Transitions.from(Stage.FINISHED)).isEmpty();
    }

    @Test
    @DisplayName("workloads are released only from the power-management stages that can hold a confirmation, and from"
            + " isolation (for a topology that releases after isolation)")
    void releaseOnlyAfterPowerManagement() {
        Set<Stage> intoRelease = EnumSet.noneOf(Stage.class);
        Stream.of(Stage.values()).filter(s -> Transitions.isLegal(s, Stage.RELEASE)).forEach(intoRelease::add);
        assertThat(intoRelease).containsExactlyInAnyOrder(Stage.ISOLATE_AGENTS, Stage.RACE_DELAY, Stage.POWER_OFF,
                Stage.CONFIRM_OFF);
    }

    @Test
    @DisplayName("a restart always begins with isolation in the cluster, and only from FAILED or a retry of isolation")
    void restartsBeginWithIsolation() {
        assertThat(Transitions.from(Stage.FAILED)).containsExactlyInAnyOrder(Stage.ISOLATE_CLUSTER, Stage.FINISHED);
        Stream.of(Stage.values()).filter(s -> Transitions.isLegal(s, Stage.ISOLATE_CLUSTER)).forEach(s ->
                assertThat(s).isIn(Stage.HOLD, Stage.ISOLATE_CLUSTER, Stage.ISOLATE_AGENTS, Stage.FAILED));
    }

    @Test
    @DisplayName("the node is powered on only after the out-of-service taint is lifted")
    void powerOnOnlyAfterLift() {
        Stream.of(Stage.values()).filter(s -> Transitions.isLegal(s, Stage.POWER_ON))
                .forEach(s -> assertThat(s).isEqualTo(Stage.LIFT_OUT_OF_SERVICE));
    }

    @Test
    @DisplayName("an illegal stage pair is refused, naming the node, both stages and their states")
    void illegalPairRefused() {
        assertThatCode(() -> Transitions.check("n1", Stage.CONFIRM_OFF, Stage.RELEASE)).doesNotThrowAnyException();

        IllegalTransitionException e = catchThrowableOfType(IllegalTransitionException.class,
                () -> Transitions.check("n1", Stage.HOLD, Stage.RELEASE));

        assertThat(e.getMessage()).contains("n1", "HOLD (NEW) -> RELEASE (RUNNING)", "legal from HOLD");
        assertThat(e.fromStage()).contains(Stage.HOLD);
        assertThat(e.toStage()).contains(Stage.RELEASE);
        assertThat(e.from()).isEqualTo(FenceState.NEW);
        assertThat(e.to()).isEqualTo(FenceState.RUNNING);
    }

    @Test
    @DisplayName("a pair legal between states can still be illegal between stages: the stage table is finer")
    void finerThanStates() {
        assertThat(Transitions.isLegal(Stage.ISOLATE_CLUSTER.state(), Stage.RACE_DELAY.state())).isTrue();
        assertThat(Transitions.isLegal(Stage.ISOLATE_CLUSTER, Stage.RACE_DELAY)).isFalse();
        assertThat(Transitions.isLegal(Stage.AWAIT_READY.state(), Stage.RECOVER_CLUSTER.state())).isTrue();
        assertThat(Transitions.isLegal(Stage.AWAIT_READY, Stage.RECOVER_CLUSTER)).isFalse();
    }
}
