package dev.remedy.core.rules;

import static dev.remedy.core.rules.MachineRemediationAction.ADD_REBOOT_ANNOTATION;
import static dev.remedy.core.rules.MachineRemediationAction.DELETE_NODE;
import static dev.remedy.core.rules.MachineRemediationAction.REMOVE_NEEDS_REMEDIATION_ANNOTATION;
import static dev.remedy.core.rules.MachineRemediationAction.REMOVE_REBOOT_ANNOTATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The machine-remediation annotation truth table, row by row, and crash recovery under a simple world model. */
class MachineRemediationRulesTest {

    @ParameterizedTest(name = "node={0} needs={1} on={2} reboot={3} -> {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # nodeRef | needsRemediation | poweredOn | rebootAnnotation | expected actions
            false | false | false | false | -
            false | false | false | true  | REMOVE_REBOOT_ANNOTATION
            false | false | true  | false | -
            false | false | true  | true  | REMOVE_REBOOT_ANNOTATION
            false | true  | false | false | ADD_REBOOT_ANNOTATION
            false | true  | false | true  | REMOVE_NEEDS_REMEDIATION_ANNOTATION REMOVE_REBOOT_ANNOTATION
            false | true  | true  | false | ADD_REBOOT_ANNOTATION
            false | true  | true  | true  | -
            true  | false | false | false | -
            true  | false | false | true  | REMOVE_REBOOT_ANNOTATION
            true  | false | true  | false | -
            true  | false | true  | true  | REMOVE_REBOOT_ANNOTATION
            true  | true  | false | false | ADD_REBOOT_ANNOTATION
            true  | true  | false | true  | DELETE_NODE
            true  | true  | true  | false | ADD_REBOOT_ANNOTATION
            true  | true  | true  | true  | -
            """)
    @DisplayName("each of the 16 states gives exactly the actions of its row, in that order")
    void truthTable(boolean nodeRef, boolean needs, boolean on, boolean reboot, String expected) {
        List<MachineRemediationAction> actions = expected.equals("-") ? List.of()
                : Arrays.stream(expected.split(" ")).map(MachineRemediationAction::valueOf).toList();
        assertThat(MachineRemediationRules.decide(new MachineRemediationState(nodeRef, needs, on, reboot)))
                .containsExactlyElementsOf(actions);
    }

    @Test
    @DisplayName("all() lists the 16 distinct states once each")
    void allStates() {
        assertThat(MachineRemediationState.all()).hasSize(16).doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("the node is deleted only while the host is off and needs remediation")
    void deleteOnlyWhileOff() {
        for (MachineRemediationState s : MachineRemediationState.all()) {
            if (MachineRemediationRules.decide(s).contains(DELETE_NODE)) {
                assertThat(s.poweredOn()).as("%s", s).isFalse();
                assertThat(s.needsRemediation()).as("%s", s).isTrue();
                assertThat(s.nodeRefExists()).as("%s", s).isTrue();
            }
        }
    }

    @Test
    @DisplayName("without needs-remediation no state keeps the reboot annotation (a host is never left off)")
    void neverLeftOff() {
        for (MachineRemediationState s : MachineRemediationState.all()) {
            List<MachineRemediationAction> actions = MachineRemediationRules.decide(s);
            if (!s.needsRemediation() && s.rebootAnnotation()) {
                assertThat(actions).as("%s", s).containsExactly(REMOVE_REBOOT_ANNOTATION);
            }
            if (actions.contains(REMOVE_NEEDS_REMEDIATION_ANNOTATION)) {
                assertThat(actions).as("%s removes both, needs-remediation first", s)
                        .containsExactly(REMOVE_NEEDS_REMEDIATION_ANNOTATION, REMOVE_REBOOT_ANNOTATION);
            }
        }
    }

    @Test
    @DisplayName("the reboot annotation is a keyed, hard reboot request of the reboot-request rules")
    void rebootAnnotationIsKeyedHardRequest() {
        RebootRequests.Parsed parsed = RebootRequests.parse(Map.of(
                MachineRemediationRules.REBOOT_ANNOTATION, MachineRemediationRules.REBOOT_ANNOTATION_VALUE));
        assertThat(parsed.problems()).isEmpty();
        assertThat(parsed.requests()).singleElement().satisfies(r -> {
            assertThat(r.keyed()).isTrue();
            assertThat(r.mode()).isEqualTo(RebootMode.HARD);
        });
        assertThat(MachineRemediationRules.NEEDS_REMEDIATION).isNotBlank();
    }

    @Test
    @DisplayName("decide() refuses a null state, naming it")
    void nullState() {
        assertThatThrownBy(() -> MachineRemediationRules.decide(null)).hasMessageContaining("state");
    }

    @Test
    @DisplayName("from each of the 16 states the rule and a converging world end powered on without annotations")
    void convergesFromEveryState() {
        for (MachineRemediationState start : MachineRemediationState.all()) {
            World w = new World(start);
            boolean wasRemediating = start.needsRemediation();
            boolean hadNode = start.nodeRefExists();
            int steps = 0;
            while (steps++ < 20) {
                List<MachineRemediationAction> actions = MachineRemediationRules.decide(w.state());
                w.apply(actions, actions.size());
                w.converge();
                if (actions.isEmpty() && MachineRemediationRules.decide(w.state()).isEmpty() && w.stable()) {
                    break;
                }
            }
            assertThat(steps).as("from %s", start).isLessThan(20);
            assertThat(w.state()).as("from %s", start).isEqualTo(new MachineRemediationState(true, false, true, false));
            if (wasRemediating && hadNode) {
                assertThat(w.deletedWhileOff).as("from %s the node was deleted while off", start).isTrue();
            }
        }
    }

    @Test
    @DisplayName("the remediation of a running host goes: power off, delete node, power on, done")
    void happyPath() {
        World w = new World(new MachineRemediationState(true, true, true, false));
        List<List<MachineRemediationAction>> trace = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            List<MachineRemediationAction> a = MachineRemediationRules.decide(w.state());
            if (a.isEmpty() && w.stable()) {
                break;
            }
            trace.add(a);
            w.apply(a, a.size());
            w.converge();
        }
        assertThat(trace).containsExactly(List.of(ADD_REBOOT_ANNOTATION), List.of(DELETE_NODE),
                List.of(REMOVE_NEEDS_REMEDIATION_ANNOTATION, REMOVE_REBOOT_ANNOTATION));
        assertThat(w.deletedWhileOff).isTrue();
    }

    @Test
    @DisplayName("a crash between the two final removals causes no second reboot cycle")
    void crashBetweenRemovals() {
        World w = new World(new MachineRemediationState(false, true, false, true));
        List<MachineRemediationAction> a = MachineRemediationRules.decide(w.state());
        w.apply(a, 1); // crash after removing needs-remediation only
        w.converge();
        assertThat(w.state()).isEqualTo(new MachineRemediationState(false, false, false, true));
        assertThat(MachineRemediationRules.decide(w.state())).containsExactly(REMOVE_REBOOT_ANNOTATION);
        w.apply(MachineRemediationRules.decide(w.state()), 1);
        w.converge();
        assertThat(w.state()).isEqualTo(new MachineRemediationState(true, false, true, false));
        assertThat(w.rebootsAdded).isZero();
    }

    /**
     * The world: adding the reboot annotation powers the host off, removing it powers it on (the host operator
     * converges power to "on unless held off"), deleting the node clears the node reference, and the node comes
     * back once the host is on.
     */
    static final class World {
        boolean nodeRef;
        boolean needs;
        boolean on;
        boolean reboot;
        boolean deletedWhileOff;
        int rebootsAdded;

        World(MachineRemediationState s) {
            nodeRef = s.nodeRefExists();
            needs = s.needsRemediation();
            on = s.poweredOn();
            reboot = s.rebootAnnotation();
        }

        MachineRemediationState state() {
            return new MachineRemediationState(nodeRef, needs, on, reboot);
        }

        /** Applies the first {@code upTo} actions (fewer models a crash part-way). */
        void apply(List<MachineRemediationAction> actions, int upTo) {
            for (MachineRemediationAction a : actions.subList(0, upTo)) {
                switch (a) {
                    case ADD_REBOOT_ANNOTATION -> {
                        reboot = true;
                        rebootsAdded++;
                    }
                    case DELETE_NODE -> {
                        assertThat(on).as("DELETE_NODE while powered on").isFalse();
                        nodeRef = false;
                        deletedWhileOff = true;
                    }
                    case REMOVE_NEEDS_REMEDIATION_ANNOTATION -> needs = false;
                    case REMOVE_REBOOT_ANNOTATION -> reboot = false;
                    default -> throw new IllegalStateException();
                }
            }
        }

        /** The host operator and the kubelet catch up fully. */
        void converge() {
            on = !reboot;
            if (on) {
                nodeRef = true;
            }
        }

        boolean stable() {
            return on == !reboot && (!on || nodeRef);
        }
    }
}
