package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.flow.Effect;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.FakePowerTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The effect guard: a refused effect is not run, stays in flight, and the next engine that may act runs it. */
class EffectGuardTest {

    private static final String NODE = "guarded-node";

    private final FakeTimeSource time = new FakeTimeSource();
    private final FakePowerLab lab = new FakePowerLab();
    private final FakePowerTarget target = lab.create(NODE, time);
    private final SimulatedCluster cluster = new SimulatedCluster().node(NODE, 2);
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final List<Effect> asked = new ArrayList<>();

    @Test
    @DisplayName("a guard that refuses every effect keeps the cluster and the machine untouched; the operation stays"
            + " in flight and the next engine runs it")
    void refusedEffectStaysInFlight() {
        FenceEngine standby = engine(effect -> {
            asked.add(effect);
            return Optional.of("not the leader");
        });
        standby.decide(NODE, "NotReady");
        time.advance(Duration.ofSeconds(40));
        standby.tick();

        assertThat(asked).singleElement().isInstanceOfSatisfying(Effect.RunCluster.class,
                c -> assertThat(c.action()).isEqualTo(dev.remedy.core.flow.ClusterAction.ISOLATE));
        assertThat(cluster.log()).isEmpty();
        NodeFence record = store.load(NODE).orElseThrow();
        assertThat(record.inFlight()).hasValueSatisfying(op -> assertThat(op.id()).isEqualTo(asked.get(0).operationId()));

        FenceEngine leader = engine(EffectGuard.ALLOW_ALL);
        assertThat(cluster.log()).startsWith("cordon " + NODE, "add-taint remedy.dev/fencing " + NODE);
        time.advance(Duration.ofSeconds(10));
        leader.tick();
        assertThat(leader.record(NODE).orElseThrow().state()).isEqualTo(FenceState.DONE);
        assertThat(target.history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("a guard is asked before agent actions too: refusing them leaves the machine on, cluster actions run")
    void refusedAgentActionDoesNotTouchTheMachine() {
        FenceEngine engine = engine(effect -> effect instanceof Effect.RunAgent
                ? Optional.of("agents refused") : Optional.empty());
        engine.decide(NODE, "NotReady");
        time.advance(Duration.ofSeconds(40));
        engine.tick();

        assertThat(cluster.cordoned(NODE)).isTrue();
        assertThat(target.history()).isEmpty();
        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(store.load(NODE).flatMap(NodeFence::inFlight)).containsInstanceOf(Operation.Agent.class);
    }

    @Test
    @DisplayName("a guard that throws refuses: nothing runs")
    void throwingGuardRefuses() {
        FenceEngine engine = engine(effect -> {
            throw new IllegalStateException("guard bug");
        });
        engine.decide(NODE, "NotReady");
        time.advance(Duration.ofSeconds(40));
        engine.tick();
        assertThat(cluster.log()).isEmpty();
        assertThat(store.load(NODE).flatMap(NodeFence::inFlight)).isPresent();
    }

    @Test
    @DisplayName("the effect guard may be set once")
    void setOnce() {
        FenceEngine.Builder builder = FenceEngine.builder().effectGuard(EffectGuard.ALLOW_ALL);
        assertThatThrownBy(() -> builder.effectGuard(effect -> Optional.empty()))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("effectGuard was already set to");
    }

    private FenceEngine engine(EffectGuard guard) {
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider(lab);
        ResolvedMethod bmc = new ResolvedMethod("bmc", "fake", fake.configure().set("plug", NODE)
                .secret("password", Secret.of("guard-test-password")).set("poll_interval", "1s").build());
        NodePlan plan = new NodePlan(NODE, "default", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(60), 1, List.of(List.of(bmc))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))));
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster).agents(FenceAgentRegistry.of(fake))
                .plans(n -> n.equals(NODE) ? Optional.of(plan) : Optional.empty()).time(time)
                .executor(Runnable::run).effectGuard(guard).build();
        engine.start();
        return engine;
    }
}
