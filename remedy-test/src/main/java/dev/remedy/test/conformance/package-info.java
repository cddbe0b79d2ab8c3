/**
 * {@link dev.remedy.test.conformance.FenceAgentConformanceKit}: the abstract JUnit 5 test that every agent's
 * {@code <Agent>ConformanceTest} extends, so every agent is held to the same contract: idempotent OFF,
 * confirmed power changes, reboot through a real OFF, deadlines, failures that are never successes, complete
 * configuration errors, no secret in any text (not even one a device echoes, through the registry's
 * {@link dev.remedy.spi.discovery.FenceAgentRegistry#create}), and interruption; plus the checks of the agent's
 * fencing kind (a fabric agent has no REBOOT and un-fences with ON, a soft agent has no OFF or ON).
 *
 * <p>The contract kits of the engine's ports work the same way: every {@link dev.remedy.core.store.FenceStateStore}
 * test extends {@link dev.remedy.test.conformance.FenceStateStoreContract} (with the records of
 * {@link dev.remedy.test.conformance.FenceRecords}), every {@link dev.remedy.core.engine.ClusterOperations} test
 * extends {@link dev.remedy.test.conformance.ClusterOperationsContract}.
 */
package dev.remedy.test.conformance;
