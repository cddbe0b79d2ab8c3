package dev.remedy.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Drives a {@link FenceFlow} as a pure function: keeps (record, now), applies observations at explicit instants and
 * checks the invariants every transition must keep (at most one operation in flight, no effect while one is in
 * flight, no release without a confirmation, every effect announced by an OperationIssued event).
 */
final class FlowDriver {

    static final String NODE = "n1";
    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    static final ResolvedMethod BMC = method("bmc");
    static final ResolvedMethod PDU_A = method("pdu-a");
    static final ResolvedMethod PDU_B = method("pdu-b");
    static final ResolvedMethod FABRIC = method("fabric", FencingKind.FABRIC);
    static final ResolvedMethod SAN = method("san", FencingKind.FABRIC);
    static final ResolvedMethod SYSRQ = method("sysrq", FencingKind.SOFT);
    static final ResolvedMethod NODE_AGENT = method("node-agent", FencingKind.SOFT);
    static final ResolvedMethod REJOIN = method("rejoin");

    final FenceFlow flow;
    final NodePlan plan;
    NodeFence record;
    Instant now;
    Transition last;
    final List<Transition> transitions = new ArrayList<>();
    final List<FenceEvent> events = new ArrayList<>();
    final List<Effect> effects = new ArrayList<>();
    /** (effect, time it was issued, step deadline of the record that issued it). */
    final List<Issued> issued = new ArrayList<>();
    /** Runs after every transition, for extra per-step checks. */
    Consumer<FlowDriver> probe = d -> { };

    record Issued(Effect effect, Instant at, Stage stage, Instant stepDeadline) {
    }

    private FlowDriver(FenceFlow flow, NodePlan plan) {
        this.flow = flow;
        this.plan = plan;
    }

    // ---- plans and settings ----

    static ResolvedMethod method(String name) {
        return method(name, FencingKind.POWER);
    }

    static ResolvedMethod method(String name, FencingKind kind) {
        return new ResolvedMethod(name, "fake", AgentConfig.builder("fake", List.of()).build(), kind);
    }

    /** Power management: level 1 = bmc, level 2 = pdu-a AND pdu-b; no isolation or recovery methods. */
    static NodePlan defaultPlan() {
        return plan(StepPlan.none(Duration.ofSeconds(60)),
                new StepPlan(Duration.ofSeconds(60), 2, List.of(List.of(BMC), List.of(PDU_A, PDU_B))),
                StepPlan.none(Duration.ofSeconds(60)));
    }

    static NodePlan plan(StepPlan isolation, StepPlan power, StepPlan recovery) {
        return new NodePlan(NODE, "default", Map.of(FenceStep.ISOLATION, isolation,
                FenceStep.POWER_MANAGEMENT, power, FenceStep.RECOVERY, recovery));
    }

    static StepPlan power(Duration timeout, int retries, List<List<ResolvedMethod>> levels) {
        return new StepPlan(timeout, retries, levels);
    }

    /** Deterministic settings: 30 s hold, 1..10 s backoff, 1 min restart delay. */
    static FlowSettings.Builder settings() {
        return FlowSettings.custom().hold(Duration.ofSeconds(30))
                .backoff(Duration.ofSeconds(1), Duration.ofSeconds(10)).restartDelay(Duration.ofMinutes(1))
                .maxRestarts(2).awaitReady(Duration.ofMinutes(15)).minOperationBudget(Duration.ofSeconds(1))
                .clusterBudget(Duration.ofSeconds(30)).operationGrace(Duration.ofSeconds(30));
    }

    // ---- starting ----

    static FlowDriver decided(FlowSettings settings, NodePlan plan) {
        return decided(settings, plan, Duration.ZERO);
    }

    /** Decided with the fence-race delay storm protection chose. */
    static FlowDriver decided(FlowSettings settings, NodePlan plan, Duration raceDelay) {
        FlowDriver d = new FlowDriver(new FenceFlow(settings), plan);
        d.now = T0;
        d.last = d.flow.decide(NODE, T0, "NotReady for 5m", Optional.empty(), raceDelay);
        d.record = d.last.record();
        d.transitions.add(d.last);
        d.events.addAll(d.last.events());
        return d;
    }

    static FlowDriver decided() {
        return decided(settings().build(), defaultPlan());
    }

    /** Decided and past the hold and the cluster isolation: ISOLATE_AGENTS with the first method in flight. */
    static FlowDriver isolating(FlowSettings settings, NodePlan plan) {
        FlowDriver d = decided(settings, plan);
        d.tickAt(settings.hold()).answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        assertThat(d.record.stage()).isEqualTo(Stage.ISOLATE_AGENTS);
        return d;
    }

    /** Decided, held and isolated: RUNNING, in RACE_DELAY if the isolation that succeeded asks for a grace. */
    static FlowDriver isolated(FlowSettings settings, NodePlan plan) {
        FlowDriver d = decided(settings, plan);
        d.tickAt(settings.hold());
        d.answer(FenceStatus.SUCCEEDED, PowerState.UNKNOWN);
        while (d.record.stage() == Stage.ISOLATE_AGENTS) {
            d.answer(FenceStatus.SUCCEEDED, PowerState.OFF);
        }
        assertThat(d.record.state()).isEqualTo(FenceState.RUNNING);
        return d;
    }

    /**
     * Decided, held and soft-fenced: RUNNING / RACE_DELAY, waiting the soft-fence grace before any power operation.
     * Isolation is {@link #softFenced soft fencing} in front of {@code plan}'s own isolation levels.
     */
    static FlowDriver running(FlowSettings settings, NodePlan plan) {
        FlowDriver d = isolated(settings, softFenced(plan));
        assertThat(d.record.stage()).isEqualTo(Stage.RACE_DELAY);
        assertThat(d.record.waitUntil()).contains(d.now.plus(settings.softFenceGrace()));
        return d;
    }

    /** {@code plan} with soft fencing by {@link #SYSRQ} as its first isolation level. */
    static NodePlan softFenced(NodePlan plan) {
        List<List<ResolvedMethod>> levels = new ArrayList<>();
        levels.add(List.of(SYSRQ));
        levels.addAll(plan.step(FenceStep.ISOLATION).levels());
        StepPlan isolation = plan.step(FenceStep.ISOLATION);
        return plan(new StepPlan(isolation.timeout(), isolation.retries(), levels),
                plan.step(FenceStep.POWER_MANAGEMENT), plan.step(FenceStep.RECOVERY));
    }

    /** Decided, held, isolated and past any grace: POWER_OFF with OFF in flight to level 1, method 1. */
    static FlowDriver poweringOff(FlowSettings settings, NodePlan plan) {
        FlowDriver d = isolated(settings, plan);
        if (d.record.stage() == Stage.RACE_DELAY) {
            d.tickAt(d.record.waitUntil().orElseThrow());
        }
        assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        return d;
    }

    /**
     * Isolation is over and power management has begun: waiting the soft-fence grace in RACE_DELAY (a wait ending
     * after now), or, with no grace due, OFF already in flight to the first power method.
     */
    static void assertPowerFencingBegun(FlowDriver d) {
        assertThat(d.record.state()).isEqualTo(FenceState.RUNNING);
        if (d.record.stage() == Stage.RACE_DELAY) {
            assertThat(d.record.waitUntil()).hasValueSatisfying(wait -> assertThat(wait).isAfter(d.now));
        } else {
            assertThat(d.record.stage()).isEqualTo(Stage.POWER_OFF);
            assertThat(d.agentEffect().action()).isEqualTo(FenceAction.OFF);
        }
    }

    /** From the start of power management: past any soft-fence grace, with OFF in flight to the first method. */
    FlowDriver powerOffIssued() {
        assertPowerFencingBegun(this);
        if (record.stage() == Stage.RACE_DELAY) {
            wake();
        }
        assertThat(record.stage()).isEqualTo(Stage.POWER_OFF);
        assertThat(agentEffect().action()).isEqualTo(FenceAction.OFF);
        return this;
    }

    /** Why the flow entered power management: the reason of the last transition into RACE_DELAY. */
    String powerFencingReason() {
        List<FenceEvent.Transitioned> into = events(FenceEvent.Transitioned.class).stream()
                .filter(t -> t.to() == Stage.RACE_DELAY).toList();
        assertThat(into).as("transitions into RACE_DELAY").isNotEmpty();
        return into.get(into.size() - 1).reason();
    }

    // ---- driving ----

    FlowDriver apply(Observation observation) {
        NodeFence before = record;
        Transition t = flow.apply(before, plan, observation, now);
        checkInvariants(before, observation, t);
        last = t;
        record = t.record();
        transitions.add(t);
        events.addAll(t.events());
        effects.addAll(t.effects());
        for (Effect e : t.effects()) {
            issued.add(new Issued(e, now, record.stage(), record.stepDeadline()));
        }
        probe.accept(this);
        return this;
    }

    /** Moves the clock to {@code at} (never backwards). */
    FlowDriver at(Instant at) {
        assertThat(at).as("the test clock never goes back").isAfterOrEqualTo(now);
        now = at;
        return this;
    }

    FlowDriver after(Duration elapsed) {
        return at(now.plus(elapsed));
    }

    FlowDriver tick() {
        return apply(new Observation.Tick());
    }

    FlowDriver tickAt(Instant at) {
        return at(at).tick();
    }

    /** A tick {@code sinceDecision} after T0. */
    FlowDriver tickAt(Duration sinceDecision) {
        return tickAt(T0.plus(sinceDecision));
    }

    FlowDriver tickAfter(Duration elapsed) {
        return after(elapsed).tick();
    }

    /** Answers the operation in flight now. */
    FlowDriver answer(FenceStatus status, PowerState power) {
        Operation op = record.inFlight().orElseThrow(() -> new AssertionError("no operation in flight in " + record));
        return apply(new Observation.Completed(op.id(), status, power, status + "/" + power));
    }

    FlowDriver answerAfter(Duration elapsed, FenceStatus status, PowerState power) {
        return after(elapsed).answer(status, power);
    }

    FlowDriver readiness(boolean ready, Optional<Instant> bootedAt) {
        return apply(new Observation.Readiness(ready, bootedAt));
    }

    FlowDriver admin(Observation.AdminCommand command) {
        return apply(new Observation.Admin(command, "alice"));
    }

    /** Ticks at the next wake time. */
    FlowDriver wake() {
        return tickAt(flow.nextWake(record).orElseThrow(() -> new AssertionError("no wake time for " + record)));
    }

    // ---- reading ----

    Operation inFlight() {
        return record.inFlight().orElseThrow(() -> new AssertionError("no operation in flight in " + record));
    }

    /** The one effect of the last transition. */
    Effect effect() {
        assertThat(last.effects()).as("effects of the last transition").hasSize(1);
        return last.effects().get(0);
    }

    Effect.RunAgent agentEffect() {
        assertThat(effect()).isInstanceOf(Effect.RunAgent.class);
        return (Effect.RunAgent) effect();
    }

    Effect.RunCluster clusterEffect() {
        assertThat(effect()).isInstanceOf(Effect.RunCluster.class);
        return (Effect.RunCluster) effect();
    }

    <E extends FenceEvent> List<E> events(Class<E> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <E extends FenceEvent> List<E> lastEvents(Class<E> type) {
        return last.events().stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<Stage> stagesVisited() {
        return events(FenceEvent.Transitioned.class).stream().map(FenceEvent.Transitioned::to).toList();
    }

    List<String> issuedDescriptions() {
        return events(FenceEvent.OperationIssued.class).stream().map(FenceEvent.OperationIssued::description).toList();
    }

    boolean everIssued(ClusterAction action) {
        return effects.stream().anyMatch(e -> e instanceof Effect.RunCluster c && c.action() == action);
    }

    List<Effect.RunAgent> agentEffects(FenceAction action) {
        return effects.stream().filter(e -> e instanceof Effect.RunAgent a && a.action() == action)
                .map(Effect.RunAgent.class::cast).toList();
    }

    // ---- invariants ----

    private static void checkInvariants(NodeFence before, Observation observation, Transition t) {
        assertThat(t.effects()).as("at most one effect per transition").hasSizeLessThanOrEqualTo(1);
        for (Effect effect : t.effects()) {
            Operation op = t.record().inFlight()
                    .orElseThrow(() -> new AssertionError("an effect was issued but the record has nothing in flight"));
            assertThat(effect.operationId()).isEqualTo(op.id());
            assertThat(effect.node()).isEqualTo(before.node());
            if (observation instanceof Observation.Recovered) {
                assertThat(before.inFlight()).as("Recovered re-issues the operation in flight").contains(op);
                continue;
            }
            before.inFlight().ifPresent(prior -> {
                assertThat(op.id()).as("a new operation while one is in flight").isNotEqualTo(prior.id());
                assertThat(t.events()).as("the operation in flight must finish before another is issued")
                        .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(FenceEvent.OperationFinished.class,
                                f -> assertThat(f.operationId()).isEqualTo(prior.id())));
            });
            assertThat(t.events()).as("an issued effect is announced")
                    .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(FenceEvent.OperationIssued.class,
                            i -> assertThat(i.operationId()).isEqualTo(op.id())));
            if (effect instanceof Effect.RunCluster c && c.action() == ClusterAction.RELEASE_WORKLOADS) {
                assertThat(t.record().confirmation()).as("RELEASE only after a confirmation that the node stopped")
                        .hasValueSatisfying(conf -> assertThat(conf.provesStopped()).isTrue());
            }
            if (effect instanceof Effect.RunCluster c && c.action() == ClusterAction.RELEASE_PODS) {
                assertThat(t.record().confirmation().map(Confirmation::kind)).as("pods alone only after isolation")
                        .contains(Confirmation.Kind.ISOLATED);
            }
        }
        if (t.record().released()) {
            assertThat(t.record().confirmation()).as("released only after a confirmation").isPresent();
        }
    }
}
