package dev.remedy.core.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Crash recovery of the machine-remediation rule against a world that catches up late and a controller that crashes
 * part-way through its actions: once the crashes stop and the world catches up, the host is always on, the node back
 * and both annotations gone; and a node is never deleted while its host is on.
 */
class MachineRemediationPropertiesTest {

    /** One event of a schedule: the controller runs (applying only {@code applied} actions), or the world moves. */
    record Event(int kind, int applied) {
    }

    @Provide
    Arbitrary<Event> events() {
        return Arbitraries.integers().between(0, 2).flatMap(kind -> Arbitraries.integers().between(0, 2)
                .map(applied -> new Event(kind, applied)));
    }

    @Property(tries = 1000)
    @Label("from any state, any interleaving of crashes and late world updates ends powered on with no annotations")
    void alwaysEndsPoweredOnWithoutAnnotations(@ForAll @IntRange(min = 0, max = 15) int start,
            @ForAll @Size(max = 40) List<@From("events") Event> schedule) {
        MachineRemediationState s = MachineRemediationState.all().get(start);
        MachineRemediationRulesTest.World w = new MachineRemediationRulesTest.World(s);
        for (Event e : schedule) {
            switch (e.kind()) {
                case 0 -> {
                    List<MachineRemediationAction> a = MachineRemediationRules.decide(w.state());
                    w.apply(a, Math.min(a.size(), e.applied())); // 0 or fewer than all: a crash
                }
                case 1 -> w.on = !w.reboot; // the host operator catches up with power
                default -> {
                    if (w.on) {
                        w.nodeRef = true; // the kubelet registers the node again
                    }
                }
            }
        }
        // Crashes stop; the controller and the world run fairly.
        for (int i = 0; i < 10; i++) {
            List<MachineRemediationAction> a = MachineRemediationRules.decide(w.state());
            w.apply(a, a.size());
            w.converge();
        }
        assertThat(w.state()).isEqualTo(new MachineRemediationState(true, false, true, false));
        assertThat(MachineRemediationRules.decide(w.state())).isEmpty();
    }
}
