package dev.remedy.simulators.redfish;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One outlet of a simulated rack PDU, at {@code /redfish/v1/PowerEquipment/RackPDUs/<pdu>/Outlets/<number>}.
 * Thread-safe.
 */
public final class SimulatedOutlet {

    /** The PowerControl values every outlet advertises and accepts. */
    public static final List<String> POWER_CONTROL_VALUES = List.of("On", "Off", "PowerCycle");

    private final String pdu;
    private final int number;
    private final ScheduledPowerTarget power;
    private final List<String> powerControls = new ArrayList<>();
    private volatile boolean switchable = true;

    SimulatedOutlet(String pdu, int number, ScheduledPowerTarget power) {
        this.pdu = pdu;
        this.number = number;
        this.power = power;
    }

    /** The id of the PDU the outlet belongs to. */
    public String pdu() {
        return pdu;
    }

    /** The outlet number, 1-based; also its id in the URI. */
    public int number() {
        return number;
    }

    /** The path of the outlet. */
    public String path() {
        return "/redfish/v1/PowerEquipment/RackPDUs/" + pdu + "/Outlets/" + number;
    }

    /**
     * What the outlet feeds: PowerControl changes it (after {@link #powerChangeDelay(Duration)}),
     * {@link PowerTarget#power(PowerState)} sets it directly, and its history records every state entered (a
     * PowerCycle records OFF then ON).
     */
    public PowerTarget powerTarget() {
        return power;
    }

    /** How long a PowerControl takes to show in the outlet's {@code PowerState}. */
    public Duration powerChangeDelay() {
        return power.delay();
    }

    /**
     * Makes PowerControl take {@code delay} on the spec's clock.
     *
     * @throws IllegalArgumentException if negative
     */
    public SimulatedOutlet powerChangeDelay(Duration delay) {
        power.delay(delay);
        return this;
    }

    /** Whether the outlet advertises and takes {@code Outlet.PowerControl}; {@code true} unless told otherwise. */
    public boolean switchable() {
        return switchable;
    }

    /**
     * Makes the outlet switched ({@code true}) or metered only ({@code false}): a metered outlet, as on PDUs that
     * switch only some outlets, advertises no {@code Outlet.PowerControl} action and answers a PowerControl with
     * 404, but still reports its {@code PowerState}.
     */
    public SimulatedOutlet switchable(boolean switched) {
        this.switchable = switched;
        return this;
    }

    /** Every PowerControl {@code PowerState} accepted, in order. */
    public List<String> powerControls() {
        synchronized (powerControls) {
            return List.copyOf(powerControls);
        }
    }

    void powerControl(String command) {
        synchronized (powerControls) {
            powerControls.add(command);
        }
        power.command(power.now(), ResetSemantics.outlet(command, power.planned()));
    }

    @Override
    public String toString() {
        return "SimulatedOutlet[" + pdu + "/" + number + ", " + power + "]";
    }
}
