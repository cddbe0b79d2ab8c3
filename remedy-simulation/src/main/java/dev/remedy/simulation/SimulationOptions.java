package dev.remedy.simulation;

import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.policy.AdmissionGate;
import dev.remedy.core.policy.Policy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a {@link PolicySimulation} runs the engine: the fence flow settings, the admission gate of each policy
 * (storm protection: by default the policy's own, through core's {@link dev.remedy.core.policy.StormGate}), and
 * the power-management step every node's
 * fence plan gets (one level: the node's BMC).
 * Start from {@link #ofDefaults()} or {@link #custom()}.
 *
 * @param flowSettings the engine's flow settings
 * @param gates        the admission gate of each policy, called once per policy; empty for each policy's own
 *                     storm protection
 * @param powerTimeout the budget of the power-management step
 * @param powerRetries how often a failed power-management step is retried
 */
public record SimulationOptions(FlowSettings flowSettings, Optional<Function<Policy, ? extends AdmissionGate>> gates,
                                Duration powerTimeout, int powerRetries) {

    /** Default budget of the power-management step. */
    public static final Duration DEFAULT_POWER_TIMEOUT = Duration.ofSeconds(120);
    /** Default retries of the power-management step. */
    public static final int DEFAULT_POWER_RETRIES = 1;

    /** Validates the options. */
    public SimulationOptions {
        Objects.requireNonNull(flowSettings, "flowSettings");
        Objects.requireNonNull(gates, "gates");
        Objects.requireNonNull(powerTimeout, "powerTimeout");
        if (powerTimeout.isNegative() || powerTimeout.isZero()) {
            throw new IllegalArgumentException("powerTimeout must be positive, was " + powerTimeout);
        }
        if (powerRetries < 0) {
            throw new IllegalArgumentException("powerRetries must be >= 0, was " + powerRetries);
        }
    }

    /** The engine's default flow settings, each policy's own storm protection, 120 s, 1 retry. */
    public static SimulationOptions ofDefaults() {
        return custom().build();
    }

    /** A builder starting from the defaults. */
    public static Builder custom() {
        return new Builder();
    }

    /** Builds {@link SimulationOptions}. */
    public static final class Builder {
        private FlowSettings flowSettings = FlowSettings.ofDefaults();
        private Function<Policy, ? extends AdmissionGate> gates;
        private Duration powerTimeout = DEFAULT_POWER_TIMEOUT;
        private int powerRetries = DEFAULT_POWER_RETRIES;

        private Builder() {
        }

        /** The engine's flow settings. */
        public Builder flowSettings(FlowSettings value) {
            this.flowSettings = Objects.requireNonNull(value, "flowSettings");
            return this;
        }

        /** One gate for every policy. A {@link ClassifiedGate} also classifies its reasons for the timeline. */
        public Builder gate(AdmissionGate value) {
            Objects.requireNonNull(value, "gate");
            this.gates = policy -> value;
            return this;
        }

        /** No storm protection at all: every remediation is admitted ({@link AdmissionGate#OPEN}). */
        public Builder noStormProtection() {
            return gate(AdmissionGate.OPEN);
        }

        /** A gate per policy (created once per policy, before the simulation starts). */
        public Builder gates(Function<Policy, ? extends AdmissionGate> value) {
            this.gates = Objects.requireNonNull(value, "gates");
            return this;
        }

        /** The budget of the power-management step. */
        public Builder powerTimeout(Duration value) {
            this.powerTimeout = value;
            return this;
        }

        /** How often a failed power-management step is retried. */
        public Builder powerRetries(int value) {
            this.powerRetries = value;
            return this;
        }

        /** The options. */
        public SimulationOptions build() {
            return new SimulationOptions(flowSettings, Optional.ofNullable(gates), powerTimeout, powerRetries);
        }
    }
}
