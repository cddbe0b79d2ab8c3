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

    /**
     * One row per state, in the design's bit order (node ref exists, needs remediation, powered on, reboot
     * annotation): the design's action, remedy's action, and, where they differ, why remedy's is safer.
     */
    @ParameterizedTest(name = "{0}: design {1}, remedy {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # NRPA | design                              | remedy                              | why remedy deviates
            0000 | -                                   | -                                   | -
            0001 | REMOVE_REBOOT_ANNOTATION            | REMOVE_REBOOT_ANNOTATION            | -
            0010 | -                                   | -                                   | -
            0011 | -                                   | REMOVE_REBOOT_ANNOTATION            | safer: a leftover reboot request would power a healthy host off for nothing; it goes before the host operator acts on it
            0100 | -                                   | ADD_REBOOT_ANNOTATION               | safer: holds the already-off failed host off instead of letting the host operator power it on only to power it off again
            0101 | REMOVE_NEEDS_REMEDIATION_ANNOTATION | REMOVE_NEEDS_REMEDIATION_ANNOTATION | -
            0110 | ADD_REBOOT_ANNOTATION               | ADD_REBOOT_ANNOTATION               | -
            0111 | -                                   | -                                   | -
            1000 | -                                   | -                                   | -
            1001 | REMOVE_REBOOT_ANNOTATION            | REMOVE_REBOOT_ANNOTATION            | -
            1010 | -                                   | -                                   | -
            1011 | -                                   | REMOVE_REBOOT_ANNOTATION            | safer: a leftover reboot request would power a healthy host off (and its node's workloads with it) for nothing
            1100 | -                                   | ADD_REBOOT_ANNOTATION               | safer: the failed host is not powered on again (kubelet and workloads restarting) before its node is deleted; remedy, not chance, holds it off while the node is deleted
            1101 | DELETE_NODE                         | DELETE_NODE                         | -
            1110 | ADD_REBOOT_ANNOTATION               | ADD_REBOOT_ANNOTATION               | -
            1111 | -                                   | -                                   | -
            """)
    @DisplayName("each of the 16 states gives its row's action; every deviation from the design says why it is safer")
    void truthTable(String bits, String design, String remedy, String why) {
        MachineRemediationState state = new MachineRemediationState(bits.charAt(0) == '1', bits.charAt(1) == '1',
                bits.charAt(2) == '1', bits.charAt(3) == '1');
        assertThat(MachineRemediationRules.decide(state)).containsExactlyElementsOf(actions(remedy));
        if (design.equals(remedy)) {
            assertThat(why).as("row %s follows the design", bits).isEqualTo("-");
        } else {
            assertThat(why).as("row %s deviates from the design", bits).startsWith("safer: ");
            // every deviation only ever holds a failed host off or releases a host no longer remediated
            assertThat(actions(remedy)).singleElement().satisfies(a -> assertThat(a == ADD_REBOOT_ANNOTATION
                    ? state.needsRemediation() : a == REMOVE_REBOOT_ANNOTATION && !state.needsRemediation())
                    .as("row %s", bits).isTrue());
        }
    }

    private static List<MachineRemediationAction> actions(String column) {
        return column.equals("-") ? List.of()
                : Arrays.stream(column.split(" ")).map(MachineRemediationAction::valueOf).toList();
    }

    @Test
    @DisplayName("the annotations are the design's own: host.metal3.io/external-remediation and "
            + "reboot.metal3.io/machine-remediation")
    void designAnnotationNames() {
        assertThat(MachineRemediationRules.NEEDS_REMEDIATION).isEqualTo("host.metal3.io/external-remediation");
        assertThat(MachineRemediationRules.REBOOT_ANNOTATION).isEqualTo("reboot.metal3.io/machine-remediation");
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
            assertThat(actions).as("%s: one write per evaluation", s).hasSizeLessThanOrEqualTo(1);
            if (!s.needsRemediation() && s.rebootAnnotation()) {
                assertThat(actions).as("%s", s).containsExactly(REMOVE_REBOOT_ANNOTATION);
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
                List.of(REMOVE_NEEDS_REMEDIATION_ANNOTATION), List.of(REMOVE_REBOOT_ANNOTATION));
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
