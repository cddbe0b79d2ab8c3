package dev.remedy.simulation;

import dev.remedy.core.policy.NodeCondition;
import dev.remedy.core.policy.NodeStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.test.fake.FakePowerTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The physics of one simulated node: Ready while powered on, booted and without a fault. Not thread-safe; the
 * simulation loop owns it.
 */
final class SimulatedNode {

    private final String name;
    private final Map<String, String> labels;
    private final FakePowerTarget target;
    private BmcBehaviour bmc = BmcBehaviour.OK;
    private Fault fault;
    private Instant faultSince;
    private int historySeen;
    private PowerState powerSeen = PowerState.ON;
    private Instant bootingUntil;
    private Instant bootedAt;
    private String ready = "True";
    private String why = "running";
    private Instant readySince;

    SimulatedNode(String name, Map<String, String> labels, FakePowerTarget target, Instant longAgo) {
        this.name = name;
        this.labels = labels;
        this.target = target;
        this.bootedAt = longAgo;
        this.readySince = longAgo;
    }

    String name() {
        return name;
    }

    Map<String, String> labels() {
        return labels;
    }

    FakePowerTarget target() {
        return target;
    }

    BmcBehaviour bmc() {
        return bmc;
    }

    void bmc(BmcBehaviour value) {
        this.bmc = value;
    }

    Optional<Fault> fault() {
        return Optional.ofNullable(fault);
    }

    void fault(Fault value, Instant now) {
        this.fault = value;
        this.faultSince = now;
    }

    Instant bootedAt() {
        return bootedAt;
    }

    boolean ready() {
        return ready.equals("True");
    }

    String readyStatus() {
        return ready;
    }

    String why() {
        return why;
    }

    NodeStatus status() {
        return new NodeStatus(name, labels, List.of(new NodeCondition("Ready", ready, readySince)));
    }

    /**
     * Advances the physics to {@code now}: notices power cycles (which end a hang and start a boot), finishes boots,
     * and sets the Ready condition. Returns a note when the node turned Ready or stopped being Ready.
     */
    Optional<String> update(Instant now, Duration bootTime, Duration flapPeriod) {
        List<PowerState> history = target.history();
        boolean wentOff = history.subList(Math.min(historySeen, history.size()), history.size())
                .contains(PowerState.OFF);
        historySeen = history.size();
        PowerState power = target.power();
        String note = null;
        if (wentOff && fault == Fault.HANG) {
            fault = null;
            note = "the power cycle ended the hang";
        }
        if (power == PowerState.ON && (wentOff || powerSeen == PowerState.OFF)) {
            bootingUntil = now.plus(bootTime);
        } else if (power == PowerState.OFF) {
            bootingUntil = null;
        }
        powerSeen = power;
        if (bootingUntil != null && !now.isBefore(bootingUntil) && fault != Fault.DEAD) {
            bootedAt = bootingUntil;
            bootingUntil = null;
        }
        String[] next = condition(now, power, flapPeriod);
        boolean wasReady = ready();
        if (!next[0].equals(ready)) {
            ready = next[0];
            readySince = now;
        }
        why = next[1];
        if (wasReady != ready()) {
            return Optional.of("Ready=" + ready + " (" + why + ")" + (note == null ? "" : "; " + note));
        }
        return Optional.ofNullable(note);
    }

    private String[] condition(Instant now, PowerState power, Duration flapPeriod) {
        if (power != PowerState.ON) {
            return new String[] {"Unknown", "powered off"};
        }
        if (fault == Fault.DEAD) {
            return new String[] {"Unknown", "dead machine"};
        }
        if (bootingUntil != null) {
            return new String[] {"Unknown", "booting"};
        }
        if (fault == null) {
            return new String[] {"True", "running"};
        }
        return switch (fault) {
            case HANG -> new String[] {"Unknown", "kernel hang"};
            case NETWORK -> new String[] {"Unknown", "network partition"};
            case FLAP -> Duration.between(faultSince, now).dividedBy(flapPeriod) % 2 == 0
                    ? new String[] {"Unknown", "reboot loop"} : new String[] {"False", "reboot loop"};
            case DEAD -> new String[] {"Unknown", "dead machine"};
        };
    }
}
