package dev.remedy.simulators.redfish;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * One ComputerSystem of a {@link RedfishSimulator}, at {@code /redfish/v1/Systems/<id>}. Tests set its behaviour
 * and read what it received from any thread; the server's threads serve it. Thread-safe.
 */
public final class SimulatedSystem {

    /** The ResetType values a system advertises unless told otherwise. */
    public static final List<String> DEFAULT_RESET_TYPES = List.of("On", "ForceOff", "GracefulShutdown",
            "GracefulRestart", "ForceRestart", "ForceOn", "PushPowerButton", "PowerCycle", "Nmi");

    private final String id;
    private final UUID uuid;
    private final ScheduledPowerTarget power;
    private final List<String> resets = new ArrayList<>();
    private volatile List<String> allowableResetTypes = DEFAULT_RESET_TYPES;
    private volatile boolean neverOff;
    private volatile boolean gracefulShutdownWorks = true;
    private volatile String name;

    SimulatedSystem(String id, ScheduledPowerTarget power) {
        this.id = id;
        this.uuid = UUID.nameUUIDFromBytes(("remedy-redfish-system:" + id).getBytes(StandardCharsets.UTF_8));
        this.power = power;
        this.name = "Computer System " + id;
    }

    /** The system id, the last segment of its URI. */
    public String id() {
        return id;
    }

    /** The system's {@code Name}: {@code Computer System <id>} unless told otherwise. */
    public String name() {
        return name;
    }

    /**
     * Sets the system's {@code Name}, as services whose Ids are UUIDs or fixed words name a system by its host or
     * virtual machine (any text, commas and spaces included; several systems may share one).
     */
    public SimulatedSystem name(String newName) {
        this.name = Objects.requireNonNull(newName, "name");
        return this;
    }

    /** The path of the system, {@code /redfish/v1/Systems/<id>}. */
    public String path() {
        return "/redfish/v1/Systems/" + id;
    }

    /** The system's UUID, stable for an id. */
    public UUID uuid() {
        return uuid;
    }

    /**
     * The machine: a Reset changes it (after {@link #powerChangeDelay(Duration)}),
     * {@link PowerTarget#power(PowerState)} sets it directly, and its history records every state entered (a
     * restart records OFF then ON).
     */
    public PowerTarget powerTarget() {
        return power;
    }

    /** The ResetType values advertised and accepted, in advertised order. */
    public List<String> allowableResetTypes() {
        return allowableResetTypes;
    }

    /**
     * Sets the ResetType values advertised in {@code ResetType@Redfish.AllowableValues} and accepted; any other
     * value is refused with 400.
     *
     * @throws IllegalArgumentException if empty, with duplicates, or with a value the DMTF ResetType enumeration
     *     does not define
     */
    public SimulatedSystem allowableResetTypes(List<String> resetTypes) {
        Set<String> unique = new LinkedHashSet<>();
        for (String type : resetTypes) {
            Objects.requireNonNull(type, "reset type");
            if (!ResetSemantics.KNOWN_RESET_TYPES.contains(type)) {
                throw new IllegalArgumentException("system '" + id + "': ResetType '" + type + "' is not one of "
                        + ResetSemantics.KNOWN_RESET_TYPES);
            }
            if (!unique.add(type)) {
                throw new IllegalArgumentException("system '" + id + "': ResetType '" + type + "' listed twice");
            }
        }
        if (unique.isEmpty()) {
            throw new IllegalArgumentException("system '" + id + "': allow at least one ResetType");
        }
        this.allowableResetTypes = List.copyOf(unique);
        return this;
    }

    /** How long a Reset takes to show in {@code PowerState}. */
    public Duration powerChangeDelay() {
        return power.delay();
    }

    /**
     * Makes a Reset take {@code delay} on the spec's clock: until then {@code PowerState}, and the machine,
     * keep the old state.
     *
     * @throws IllegalArgumentException if negative
     */
    public SimulatedSystem powerChangeDelay(Duration delay) {
        power.delay(delay);
        return this;
    }

    /** Whether the machine never reaches off. */
    public boolean neverOff() {
        return neverOff;
    }

    /**
     * Makes the machine never reach off ({@code true}): ForceOff and the other off requests are accepted, but the
     * machine, and {@code PowerState}, stay on (a restart changes nothing either).
     */
    public SimulatedSystem neverOff(boolean stuckOn) {
        this.neverOff = stuckOn;
        return this;
    }

    /** Whether GracefulShutdown and GracefulRestart are honoured. */
    public boolean gracefulShutdownWorks() {
        return gracefulShutdownWorks;
    }

    /**
     * Makes GracefulShutdown and GracefulRestart work ({@code true}, the default) or be accepted and ignored, as
     * when the operating system does not answer the ACPI request.
     */
    public SimulatedSystem gracefulShutdownWorks(boolean works) {
        this.gracefulShutdownWorks = works;
        return this;
    }

    /** Every ResetType accepted, in order (refused ones are not listed). */
    public List<String> resets() {
        synchronized (resets) {
            return List.copyOf(resets);
        }
    }

    /** Records an accepted Reset and queues its power change, entered after {@code startNanos} plus the delay. */
    void reset(String resetType, long startNanos) {
        synchronized (resets) {
            resets.add(resetType);
        }
        power.command(startNanos,
                ResetSemantics.system(resetType, power.planned(), neverOff, gracefulShutdownWorks));
    }

    @Override
    public String toString() {
        return "SimulatedSystem[" + id + ", " + power + "]";
    }
}
