/**
 * {@link dev.remedy.testkit.conformance.FenceAgentConformanceKit}: the abstract JUnit 5 test that every agent's
 * {@code <Agent>ConformanceTest} extends, so every agent is held to the same contract: idempotent OFF,
 * confirmed power changes, reboot through a real OFF, deadlines, failures that are never successes, complete
 * configuration errors, no secret in any text, and interruption.
 */
package dev.remedy.testkit.conformance;
