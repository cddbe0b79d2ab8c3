package dev.remedy.simulation;

import dev.remedy.core.event.FenceEventListener;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.policy.PolicyDecision;
import dev.remedy.simulation.TimelineEntry.Kind;
import dev.remedy.spi.FenceStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Collects timeline entries from the simulation's parts: scenario steps and physics, policy decisions and fence
 * events. Fence events that happen while the policies are evaluated are held back until the decisions that caused
 * them are recorded, so a timeline reads STARTED before DECIDED. Not thread-safe.
 */
final class TimelineRecorder implements FenceEventListener {

    private final Instant start;
    private final List<TimelineEntry> entries = new ArrayList<>();
    private final List<TimelineEntry> held = new ArrayList<>();
    private boolean holding;
    private Function<String, String> remedyOf = node -> "";
    private BiFunction<String, String, Kind> holdKind = (node, reason) -> Kind.HELD;

    TimelineRecorder(Instant start) {
        this.start = start;
    }

    /** Names the remedy of a node's fence events (the fence remedy last started for it). */
    void remedyOf(Function<String, String> value) {
        this.remedyOf = value;
    }

    /** Classifies a hold-back reason of a node (held, refused, shared infrastructure). */
    void holdKind(BiFunction<String, String, Kind> value) {
        this.holdKind = value;
    }

    Duration offset(Instant at) {
        return Duration.between(start, at);
    }

    void record(Instant at, String node, Kind kind, String remedy, String reason) {
        add(new TimelineEntry(offset(at), node, kind, remedy, reason));
    }

    void addAll(List<TimelineEntry> more) {
        more.forEach(this::add);
    }

    /** Holds fence events back until {@link #release()}. */
    void hold() {
        holding = true;
    }

    /** Records the fence events held back. */
    void release() {
        holding = false;
        entries.addAll(held);
        held.clear();
    }

    /** Records a policy decision. */
    void decision(PolicyDecision d) {
        Kind kind = switch (d.kind()) {
            case STARTED -> Kind.STARTED;
            case ESCALATED -> Kind.ESCALATED;
            case CANCELLED -> Kind.CANCELLED;
            case RECOVERED -> Kind.RECOVERED;
            case EXHAUSTED -> Kind.EXHAUSTED;
            case HELD -> holdKind.apply(d.node(), d.reason());
            case PAUSED -> Kind.PAUSED;
        };
        entries.add(new TimelineEntry(offset(d.at()), d.node(), kind, d.remedy(), d.reason()));
    }

    @Override
    public void onEvent(FenceEvent event) {
        Kind kind = null;
        String reason = null;
        if (event instanceof FenceEvent.Transitioned t) {
            if (t.to() == Stage.HOLD && t.from() == Stage.HOLD) {
                kind = Kind.DECIDED;
                reason = t.reason();
            } else if (t.from() == Stage.RELEASE && t.to() != Stage.RELEASE) {
                kind = Kind.RELEASED;
                reason = t.reason();
            } else if (t.from() == Stage.POWER_ON && t.to() != Stage.POWER_ON) {
                kind = Kind.POWERED_ON;
                reason = t.reason();
            } else if (t.to() == Stage.FAILED) {
                kind = Kind.FENCE_FAILED;
                reason = t.reason();
            } else if (t.to() == Stage.FINISHED) {
                kind = Kind.FENCE_FINISHED;
                reason = t.reason();
            }
        } else if (event instanceof FenceEvent.Confirmed c) {
            kind = Kind.FENCED;
            reason = describe(c.confirmation());
        } else if (event instanceof FenceEvent.OperationFinished f && f.result() != FenceStatus.SUCCEEDED) {
            kind = Kind.OPERATION_FAILED;
            reason = f.description() + " " + f.result() + ": " + f.detail();
        } else if (event instanceof FenceEvent.Refused r) {
            kind = Kind.FENCE_REFUSED;
            reason = r.reason();
        } else if (event instanceof FenceEvent.Alert a) {
            kind = Kind.ALERT;
            reason = a.reason();
        }
        if (kind != null) {
            add(new TimelineEntry(offset(event.at()), event.node(), kind, remedyOf.apply(event.node()), reason));
        }
    }

    Timeline timeline(String scenario) {
        release();
        return new Timeline(scenario, entries);
    }

    private void add(TimelineEntry entry) {
        (holding && isFence(entry.kind()) ? held : entries).add(entry);
    }

    private static boolean isFence(Kind kind) {
        return kind.compareTo(Kind.DECIDED) >= 0;
    }

    private static String describe(Confirmation c) {
        return switch (c.kind()) {
            case STATUS_READ_OFF -> "power off confirmed: STATUS of " + c.source() + " reads OFF";
            case REBOOTED_AFTER_DECISION -> "the node rebooted after the decision (" + c.source() + ")";
            case MANUAL -> "power off confirmed by hand by " + c.source();
            case ISOLATED -> "isolation confirmed: " + c.source() + " read isolated (releaseAfter: isolation)";
            case ASSUMED_RESET_AFTER_SAFE_TIME -> "reset assumed after the safe time: " + c.source()
                    + " (the node's agent reported an armed watchdog; no power was read)";
        };
    }
}
