package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The engine's safety invariants under random histories: observations, agent behaviours, admin commands, clock
 * jumps and crashes at any point (the store fails a save, or queued operations are lost), with the engine restarted
 * from the store. Checked after every action: (1) no workload release before a persisted confirmation (and, for
 * a STATUS confirmation, never while the machine is on); (2) no flow FINAL with its machine off unless an alert
 * said so; (3) an operation is handed to the executor only after its record was persisted with it as the single
 * operation in flight, and never twice; (4) an operation acts only while its persisted record still has it in
 * flight (a stale one, counted as lost, never touches the machine or the cluster); (5) retries and restarts within
 * their limits.
 */
class FenceSafetyPropertiesTest {

    /** One thing that happens in the world. */
    record Action(Kind kind, int node, int amount, EngineWorld.Behaviour behaviour, Observation.AdminCommand admin) {
    }

    /** The kinds of things that happen. */
    enum Kind { DECIDE, ADVANCE, DRAIN, READY, REBOOT, BEHAVE, ADMIN, JUMP_WALL, CRASH_NOW, CRASH_AT_NEXT_SAVE }

    @Property(tries = 1000)
    @Label("safety invariants hold across random histories with crashes")
    void invariantsHold(@ForAll("histories") List<Action> history) {
        EngineWorld world = new EngineWorld(2, new InMemoryStateStore(), FlowSettings.custom()
                .hold(Duration.ofSeconds(10))
                .restartDelay(Duration.ofSeconds(30)).maxRestarts(2).awaitReady(Duration.ofMinutes(5)).build());
        int crashPoints = 0;
        for (Action action : history) {
            try {
                perform(world, action);
            } catch (EngineWorld.Crash crash) {
                crashPoints++;
                world.crash();
            }
            world.checkState();
            assertThat(world.violations).as("after %s", action).isEmpty();
        }
        world.quiesce();
        world.checkState();
        assertThat(world.violations).isEmpty();
        assertThat(world.store.loadAll()).as("every flow settles once the world behaves")
                .allSatisfy(r -> assertThat(r.isSettled()).as("%s: %s %s", r.node(), r.stage(), r.reason()).isTrue());
        Statistics.label("crashes").collect(Math.min(world.crashes, 5));
        Statistics.label("crash points inside an operation").collect(crashPoints > 0);
        Statistics.label("settled states").collect(world.store.loadAll().stream()
                .map(r -> r.state() + (r.gaveUp() ? "/gave-up" : "")).sorted().toList());
    }

    /** A fence-race delay of 1 to 4 s, fixed per node, as storm protection would add to each decision. */
    private static Duration raceDelay(String node) {
        return Duration.ofMillis(1_000 + Math.floorMod(node.hashCode(), 3_001));
    }

    private static void perform(EngineWorld world, Action action) {
        String node = world.nodes.get(action.node() % world.nodes.size());
        switch (action.kind()) {
            case DECIDE -> world.engine.decide(node, "random decision", raceDelay(node));
            case ADVANCE -> {
                world.time.advance(Duration.ofSeconds(action.amount()));
                world.engine.tick();
            }
            case DRAIN -> world.drain(action.amount());
            case READY -> {
                boolean on = world.targets.get(node).power() == PowerState.ON;
                world.engine.observe(node, new Observation.Readiness(on, Optional.empty()));
            }
            case REBOOT -> {
                if (world.targets.get(node).power() == PowerState.ON) {
                    world.targets.get(node).power(PowerState.OFF);
                    world.targets.get(node).power(PowerState.ON);
                    world.engine.observe(node, new Observation.Readiness(true, Optional.of(world.time.instant())));
                }
            }
            case BEHAVE -> world.setBehaviour(node, action.behaviour());
            case ADMIN -> {
                switch (action.admin()) {
                    case PAUSE -> world.engine.pause(node, "prop");
                    case RESUME -> world.engine.resume(node, "prop");
                    case FORCE_STOP -> world.engine.forceStop(node, "prop");
                    case CLEAR_ERROR -> world.engine.clearError(node, "prop");
                    case CONFIRM_OFF -> {
                        if (world.targets.get(node).power() == PowerState.OFF) {
                            world.engine.confirmOff(node, "prop");
                        }
                    }
                }
            }
            case JUMP_WALL -> {
                world.time.jumpWall(Duration.ofSeconds(action.amount() - 300L));
                world.engine.tick();
            }
            case CRASH_NOW -> throw new EngineWorld.Crash();
            case CRASH_AT_NEXT_SAVE -> world.store.armed = world.store.saves + action.amount() % 4;
        }
    }

    @Provide
    Arbitrary<List<Action>> histories() {
        Arbitrary<Kind> kinds = Arbitraries.frequency(
                net.jqwik.api.Tuple.of(3, Kind.DECIDE), net.jqwik.api.Tuple.of(10, Kind.ADVANCE),
                net.jqwik.api.Tuple.of(10, Kind.DRAIN), net.jqwik.api.Tuple.of(4, Kind.READY),
                net.jqwik.api.Tuple.of(1, Kind.REBOOT), net.jqwik.api.Tuple.of(3, Kind.BEHAVE),
                net.jqwik.api.Tuple.of(2, Kind.ADMIN), net.jqwik.api.Tuple.of(1, Kind.JUMP_WALL),
                net.jqwik.api.Tuple.of(1, Kind.CRASH_NOW), net.jqwik.api.Tuple.of(2, Kind.CRASH_AT_NEXT_SAVE));
        Arbitrary<Action> action = Combinators.combine(kinds, Arbitraries.integers().between(0, 1),
                Arbitraries.integers().between(1, 600), Arbitraries.of(EngineWorld.Behaviour.class),
                Arbitraries.of(Observation.AdminCommand.class)).as(Action::new);
        return action.list().ofMinSize(5).ofMaxSize(80);
    }
}
