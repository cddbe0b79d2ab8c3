package dev.remedy.fence.kube.metrics;

import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.core.storm.Admission;
import dev.remedy.core.storm.StormListener;
import dev.remedy.core.storm.StormSignal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * remedy's metrics on the host's {@link MeterRegistry}. Feed it the engine's events ({@link FenceEventListener}),
 * the policy controller's decisions ({@link Consumer} of {@link PolicyDecision}) and storm protection's signals
 * ({@link StormListener}); give it the number of watched nodes with {@link #trackNodes}.
 * <ul>
 *   <li>{@value #STARTED}, {@value #SUCCEEDED}, {@value #FAILED} (tag {@code policy}): remediations started (the
 *       first remedy), ended with the node healthy, and ended with the ladder exhausted;</li>
 *   <li>{@value #REFUSED} (tags {@code rule}, the setting that denied it such as {@code minHealthy} or
 *       {@code pauseRequests}, and {@code verdict}, {@code held} or {@code refused}): once per node and rule in a
 *       row, not once per evaluation;</li>
 *   <li>{@value #TIME_TO_SAFE}: from the fencing decision to the release of the node's workloads;</li>
 *   <li>{@value #AGENT_LATENCY} (tags {@code agent}, the agent type id, and {@code outcome}, such as
 *       {@code succeeded} or {@code timed_out}): from an agent operation's issue to its result; cluster actions
 *       are not agents and not timed;</li>
 *   <li>{@value #NODES}: the nodes the policy controller tracks.</li>
 * </ul>
 * Times are taken from the events' own times. Thread-safe.
 */
public final class RemedyMetrics implements FenceEventListener, StormListener, Consumer<PolicyDecision> {

    /** Remediations started. */
    public static final String STARTED = "remedy.remediations.started";
    /** Remediations ended with the node healthy. */
    public static final String SUCCEEDED = "remedy.remediations.succeeded";
    /** Remediations that ran out of remedies. */
    public static final String FAILED = "remedy.remediations.failed";
    /** Remediations held back or refused, by rule. */
    public static final String REFUSED = "remedy.remediations.refused";
    /** From the fencing decision to the release of workloads. */
    public static final String TIME_TO_SAFE = "remedy.fence.time.to.safe";
    /** Agent operations, by agent type and outcome. */
    public static final String AGENT_LATENCY = "remedy.agent.latency";
    /** Nodes tracked by the policy controller. */
    public static final String NODES = "remedy.nodes.tracked";

    private static final int MAX_PENDING = 100_000;

    private final MeterRegistry registry;
    private final Timer timeToSafe;
    private final Map<String, Instant> decided = new ConcurrentHashMap<>();
    private final Map<String, Instant> issued = new ConcurrentHashMap<>();
    private final Map<String, String> lastDenied = new ConcurrentHashMap<>();

    /** Metrics on {@code registry}. */
    public RemedyMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.timeToSafe = Timer.builder(TIME_TO_SAFE)
                .description("time from the fencing decision to the release of the node's workloads")
                .register(registry);
    }

    /** Publishes {@code tracked} (such as {@code watcher::tracked}) as the gauge {@value #NODES}. */
    public void trackNodes(IntSupplier tracked) {
        Objects.requireNonNull(tracked, "tracked");
        Gauge.builder(NODES, tracked, IntSupplier::getAsInt).strongReference(true)
                .description("nodes the policy controller tracks").register(registry);
    }

    @Override
    public void onEvent(FenceEvent event) {
        if (event instanceof FenceEvent.Transitioned t) {
            if (t.from() == Stage.HOLD && t.to() == Stage.HOLD) {
                bounded(decided).put(t.node(), t.at());
            } else if (t.from() == Stage.RELEASE && t.to() != Stage.FAILED && t.to() != Stage.FINISHED) {
                Instant since = decided.remove(t.node());
                if (since != null && !t.at().isBefore(since)) {
                    timeToSafe.record(Duration.between(since, t.at()));
                }
            } else if (t.to() == Stage.FINISHED) {
                decided.remove(t.node());
            }
        } else if (event instanceof FenceEvent.OperationIssued o) {
            bounded(issued).put(o.operationId(), o.at());
        } else if (event instanceof FenceEvent.OperationFinished o) {
            Instant since = issued.remove(o.operationId());
            if (since != null && !o.agentType().equals(FenceEvent.OperationFinished.CLUSTER)
                    && !o.at().isBefore(since)) {
                Timer.builder(AGENT_LATENCY).description("agent operations from issue to result")
                        .tag("agent", o.agentType().isEmpty() ? "unknown" : o.agentType())
                        .tag("outcome", o.result().name().toLowerCase(Locale.ROOT))
                        .register(registry).record(Duration.between(since, o.at()));
            }
        }
    }

    @Override
    public void accept(PolicyDecision decision) {
        switch (decision.kind()) {
            case STARTED -> {
                lastDenied.remove(decision.node());
                counter(STARTED, decision.policy());
            }
            case ESCALATED -> lastDenied.remove(decision.node());
            case RECOVERED -> {
                lastDenied.remove(decision.node());
                counter(SUCCEEDED, decision.policy());
            }
            case EXHAUSTED -> counter(FAILED, decision.policy());
            case PAUSED -> denied(decision.node(), "pauseRequests", "held");
            default -> {
            }
        }
    }

    @Override
    public void onSignal(StormSignal signal) {
        if (signal instanceof StormSignal.AdmissionDenied d) {
            denied(d.node(), d.decision().reason().property(),
                    d.decision() instanceof Admission.Refused ? "refused" : "held");
        }
    }

    private void denied(String node, String rule, String verdict) {
        if (!rule.equals(bounded(lastDenied).put(node, rule))) {
            Counter.builder(REFUSED).description("remediations held back or refused, once per node and rule in a row")
                    .tag("rule", rule).tag("verdict", verdict).register(registry).increment();
        }
    }

    private void counter(String name, String policy) {
        Counter.builder(name).tag("policy", policy).register(registry).increment();
    }

    /** {@code map}, emptied first if it grew past its bound (entries whose end was never seen). */
    private static <V> Map<String, V> bounded(Map<String, V> map) {
        if (map.size() >= MAX_PENDING) {
            map.clear();
        }
        return map;
    }
}
