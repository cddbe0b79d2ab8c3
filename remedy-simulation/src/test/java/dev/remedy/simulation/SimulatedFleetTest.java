package dev.remedy.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.policy.NodeCondition;
import dev.remedy.test.FakeTimeSource;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the simulated fleet's physics")
class SimulatedFleetTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final Scenario scenario = Scenario.builder().nodes(2).build();

    private NodeCondition ready(SimulatedFleet fleet) {
        return fleet.status("node-1").condition("Ready").orElseThrow();
    }

    private Instant step(SimulatedFleet fleet, Duration by) {
        time.advance(by);
        Instant now = time.instant();
        fleet.update(now, Duration.ZERO);
        return now;
    }

    @Test
    @DisplayName("a hang is Unknown until a power cycle, then Ready after the boot; transitions only on change")
    void hangAndPowerCycle() {
        try (SimulatedFleet fleet = new SimulatedFleet(scenario, time)) {
            Instant hungAt = time.instant();
            fleet.apply(Scenario.fault(Fault.HANG, "node-1"), hungAt, Duration.ZERO);
            fleet.update(hungAt, Duration.ZERO);
            step(fleet, Duration.ofMinutes(3));
            assertThat(ready(fleet)).isEqualTo(new NodeCondition("Ready", "Unknown", hungAt));

            fleet.powerCycle("node-1");
            Instant cycled = step(fleet, Duration.ofSeconds(5));
            assertThat(fleet.fault("node-1")).isEmpty();
            assertThat(ready(fleet).lastTransition()).as("still Unknown while booting").isEqualTo(hungAt);

            Instant booted = step(fleet, Scenario.DEFAULT_BOOT_TIME);
            assertThat(ready(fleet)).isEqualTo(new NodeCondition("Ready", "True", booted));
            assertThat(fleet.bootedAt("node-1")).isEqualTo(cycled.plus(Scenario.DEFAULT_BOOT_TIME));
        }
    }

    @Test
    @DisplayName("a network partition survives a power cycle and a dead node never boots")
    void networkAndDead() {
        try (SimulatedFleet fleet = new SimulatedFleet(scenario, time)) {
            fleet.apply(Scenario.fault(Fault.NETWORK, "node-1"), time.instant(), Duration.ZERO);
            fleet.apply(Scenario.fault(Fault.DEAD, "node-0"), time.instant(), Duration.ZERO);
            fleet.powerCycle("node-1");
            fleet.powerCycle("node-0");
            step(fleet, Duration.ofMinutes(10));

            assertThat(fleet.ready("node-1")).isFalse();
            assertThat(fleet.fault("node-1")).contains(Fault.NETWORK);
            assertThat(fleet.ready("node-0")).isFalse();
        }
    }

    @Test
    @DisplayName("a flapping node alternates Unknown and False every flap period")
    void flap() {
        try (SimulatedFleet fleet = new SimulatedFleet(scenario, time)) {
            fleet.apply(Scenario.fault(Fault.FLAP, "node-1"), time.instant(), Duration.ZERO);
            step(fleet, Duration.ofSeconds(5));
            assertThat(ready(fleet).status()).isEqualTo("Unknown");
            Instant flipped = step(fleet, Scenario.DEFAULT_FLAP_PERIOD);
            assertThat(ready(fleet)).isEqualTo(new NodeCondition("Ready", "False", flipped));
            step(fleet, Scenario.DEFAULT_FLAP_PERIOD);
            assertThat(ready(fleet).status()).isEqualTo("Unknown");
        }
    }

    @Test
    @DisplayName("a lying BMC never lets the engine confirm a fence, so nothing is released")
    void lyingBmc() {
        Scenario lying = Scenario.builder().nodes(3).bmc("node-1", BmcBehaviour.LIES)
                .at("1m", Scenario.fault(Fault.HANG, "node-1")).runFor("15m").build();

        Timeline timeline = PolicySimulation.run(java.util.List.of(Policies.fencing()), lying);

        assertThat(timeline.firstAt("node-1", TimelineEntry.Kind.DECIDED)).isPresent();
        assertThat(timeline.of(TimelineEntry.Kind.FENCED)).isEmpty();
        assertThat(timeline.of(TimelineEntry.Kind.RELEASED)).isEmpty();
        assertThat(timeline.of("node-1", TimelineEntry.Kind.FENCE_FAILED)).isNotEmpty();
    }
}
