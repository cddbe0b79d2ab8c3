package dev.remedy.test.conformance;

import dev.remedy.core.flow.Attempt;
import dev.remedy.core.flow.ClusterAction;
import dev.remedy.core.flow.Confirmation;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.flow.Operation;
import dev.remedy.core.flow.Stage;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Fence records for store tests: a minimal one and two with every optional present, as
 * {@link FenceStateStoreContract} saves and loads them. A store's own tests use them too.
 */
public final class FenceRecords {

    /** The decision time of every record here. */
    public static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private FenceRecords() {
    }

    /** A record as the flow creates it: holding, nothing optional present. */
    public static NodeFence minimal(String node) {
        return NodeFence.decided(node, T0, T0.plusSeconds(30), "NotReady for 300s");
    }

    /** Powering off through an agent: every optional present, attempts, confirmed methods, nanosecond instants. */
    public static NodeFence withAgentOperation(String node) {
        Operation off = new Operation.Agent(node + "#7", FenceStep.POWER_MANAGEMENT, 1, 2, FenceAction.OFF,
                T0.plusSeconds(40), Duration.ofSeconds(30));
        return new NodeFence(node, Stage.POWER_OFF, 1, 2, 3, 1, T0, T0.plusSeconds(40), T0.plusSeconds(35),
                T0.plusSeconds(335), Optional.of(T0.plusSeconds(41).plusNanos(123_456_789)), Optional.of(off), 7,
                List.of("bmc", "pdu-a"),
                Optional.of(new Confirmation(Confirmation.Kind.STATUS_READ_OFF, "bmc+pdu-a", T0.plusSeconds(39))),
                OptionalInt.of(0), OptionalInt.of(1), true, true, Optional.of(T0.plusSeconds(38)), false,
                "level 1 \"bmc\" timed out; retrying — ünïcode\nsecond line",
                List.of(new Attempt(T0.plusSeconds(20), "isolation L0 fabric off", FenceStatus.SUCCEEDED, "port 12 disabled"),
                        new Attempt(T0.plusSeconds(36), "power_management L1 bmc off", FenceStatus.TIMED_OUT, "no answer in 30s")),
                0);
    }

    /** Releasing workloads through the cluster: a cluster operation and a manual confirmation. */
    public static NodeFence withClusterOperation(String node) {
        Operation release = new Operation.Cluster(node + "#9", FenceStep.POWER_MANAGEMENT,
                ClusterAction.RELEASE_WORKLOADS, T0.plusSeconds(60), Duration.ofMillis(1500));
        return new NodeFence(node, Stage.RELEASE, 0, 0, 0, 2, T0, T0.plusSeconds(60), T0.plusSeconds(50),
                T0.plusSeconds(350), Optional.of(T0.plusSeconds(61)), Optional.of(release), 9, List.of("ipmi"),
                Optional.of(new Confirmation(Confirmation.Kind.MANUAL, "admin@example.com", T0.plusSeconds(59))),
                OptionalInt.of(2), OptionalInt.of(0), false, false, Optional.of(T0.plusSeconds(58)), true,
                "confirmed by an admin",
                List.of(new Attempt(T0.plusSeconds(55), "cluster isolate", FenceStatus.SUCCEEDED, "")), 0);
    }

    /** {@code record} with another reason (the flow's setters are package-private). */
    public static NodeFence withReason(NodeFence r, String reason) {
        return new NodeFence(r.node(), r.stage(), r.level(), r.method(), r.retries(), r.restarts(), r.decidedAt(),
                r.stageSince(), r.stepStartedAt(), r.stepDeadline(), r.waitUntil(), r.inFlight(), r.sequence(),
                r.levelConfirmed(), r.confirmation(), r.isolationLevel(), r.powerLevel(), r.released(),
                r.poweredOff(), r.pausedAt(), r.gaveUp(), reason, r.attempts(), r.version());
    }
}
