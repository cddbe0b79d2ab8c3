package dev.remedy.core.engine;

import dev.remedy.core.engine.Backlog.Work;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceFlow;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Observation;
import dev.remedy.core.flow.Transition;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.PlanSource;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.StaleRecordException;
import dev.remedy.core.store.StateStoreException;
import dev.remedy.spi.TimeSource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one piece of work for a node into its transition and saves the record, write-ahead: the events and
 * effects it returns may be published and run only because the record that caused them is saved. A record that
 * changed in the store is reloaded and the work decided again from it; a save that fails changes nothing and
 * says why. Callers hold the node's lock. Never throws.
 */
final class Steps {

    /** Logs under the engine's name, which is what operators configure. */
    private static final Logger LOG = LoggerFactory.getLogger(FenceEngine.class);

    private final FenceFlow flow;
    private final FenceStateStore store;
    private final PlanSource plans;
    private final TimeSource time;
    private final Map<String, NodeFence> records;
    /** The last problem reported per node: a missing plan is reported once, not at every tick. */
    private final Map<String, String> reported = new ConcurrentHashMap<>();
    /**
     * The nodes whose recovery after a start was refused for want of a plan (a plan source filled after the engine
     * started, such as remediations' plans made again by a new leader): the first tick that finds a plan recovers them.
     */
    private final Set<String> unrecovered = ConcurrentHashMap.newKeySet();

    Steps(FenceFlow flow, FenceStateStore store, PlanSource plans, TimeSource time, Map<String, NodeFence> records) {
        this.flow = flow;
        this.store = store;
        this.plans = plans;
        this.time = time;
        this.records = records;
    }

    /** Does {@code work} for {@code node}; the step says what to publish and run, or why nothing was saved. */
    Step run(String node, Work work) {
        try {
            try {
                return attempt(node, work);
            } catch (StaleRecordException e) {
                LOG.warn("{}; reloading the record of node {} and deciding again from it", e.getMessage(), node);
                Optional<NodeFence> stored = store.load(node);
                stored.ifPresentOrElse(r -> records.put(node, r), () -> records.remove(node));
                String lost = store.lostRecords().get(node);
                return attempt(node, stored.isEmpty() && lost != null ? new Work.Hold(holdReason(lost)) : work);
            }
        } catch (StaleRecordException | StateStoreException e) {
            return Step.unsaved(e.getMessage());
        } catch (FlowFailure e) {
            LOG.error("could not compute the next step of node {} for {}", node, work, e.getCause());
            String problem = "remedy could not compute the next step of node " + node + " (" + e.getCause() + "): "
                    + "its flow stays where it was; report this as a bug";
            return once(node, problem, new FenceEvent.Alert(node, time.instant(), problem));
        }
    }

    /** The reason a node whose record was lost is held for. */
    static String holdReason(String why) {
        return "held for an admin: " + why + "; remedy cannot know what its flow did, so it does not touch the node:"
                + " check its power, cordon and taints, then clear the ERROR";
    }

    private Step attempt(String node, Work work) {
        Instant now = time.instant();
        NodeFence current = records.get(node);
        if (work instanceof Work.Hold hold) {
            NodeFence held = NodeFence.heldForAdmin(node, now, hold.reason());
            if (current != null) {
                held = held.withVersion(current.version());
            }
            records.put(node, store.save(held));
            return Step.of(List.of(new FenceEvent.Alert(node, now, "node " + node + " is " + hold.reason())),
                    List.of());
        }
        if (work instanceof Work.Decide decide) {
            if (current != null && !current.isSettled()) {
                return Step.of(List.of(new FenceEvent.Refused(node, now, "node " + node + " is already in a fence "
                        + "flow (" + current.state() + "); decision '" + decide.reason() + "' ignored")), List.of());
            }
            if (current != null && current.gaveUp()) {
                return Step.of(List.of(new FenceEvent.Refused(node, now, "node " + node + " gave up in ERROR; an "
                        + "admin must clear it before remedy touches it again")), List.of());
            }
            Transition t = compute(() -> flow.decide(node, now, decide.reason(), Optional.ofNullable(current),
                    decide.raceDelay()));
            records.put(node, store.save(t.record()));
            return Step.of(t.events(), t.effects());
        }
        if (current == null) {
            return Step.NONE;
        }
        Optional<NodePlan> plan;
        String problem;
        try {
            plan = plans.plan(node);
            problem = plan.isPresent() ? null : "no fence plan covers node " + node
                    + "; add a topology for it to the fence configuration";
        } catch (RuntimeException e) {
            plan = Optional.empty();
            problem = "the fence plan of node " + node + " cannot be built: " + e.getMessage();
        }
        Observation observation = ((Work.Observe) work).observation();
        if (plan.isEmpty()) {
            if (observation instanceof Observation.Recovered) {
                unrecovered.add(node);
            }
            return once(node, problem, new FenceEvent.Refused(node, now, problem));
        }
        reported.remove(node);
        if (observation instanceof Observation.Recovered || observation instanceof Observation.Tick
                && unrecovered.contains(node)) {
            unrecovered.remove(node);
            observation = new Observation.Recovered();
        }
        NodePlan nodePlan = plan.get();
        Observation applied = observation;
        Transition t = compute(() -> flow.apply(current, nodePlan, applied, now));
        // A recovered operation is issued again only after its record is claimed (saved, which raises its version,
        // even if unchanged): an engine that acted on the older version can then no longer save over it.
        boolean claim = applied instanceof Observation.Recovered && !t.effects().isEmpty();
        if (claim || !t.record().equals(current)) {
            records.put(node, store.save(t.record()));
        }
        return Step.of(t.events(), t.effects());
    }

    /** The nodes whose recovery waits for a plan; {@link FenceEngine#tick()} ticks them whether they are due or not. */
    Set<String> unrecovered() {
        return Set.copyOf(unrecovered);
    }

    /** The transition {@code transition} computes; a failure of the flow's code is a {@link FlowFailure}. */
    private static Transition compute(Supplier<Transition> transition) {
        try {
            return transition.get();
        } catch (RuntimeException e) {
            throw new FlowFailure(e);
        }
    }

    /** The flow failed to compute a transition: a bug, reported, never a reason for a thread to die. */
    private static final class FlowFailure extends RuntimeException {
        FlowFailure(RuntimeException cause) {
            super(cause);
        }
    }

    /** {@code event} about {@code problem}, unless this node's last reported problem was the same. */
    private Step once(String node, String problem, FenceEvent event) {
        boolean repeated = problem.equals(reported.put(node, problem));
        return repeated ? Step.NONE : Step.of(List.of(event), List.of());
    }
}
