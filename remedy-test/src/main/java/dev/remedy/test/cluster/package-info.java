/**
 * A simulated cluster for engine and policy tests: nodes with cordons, taints and pods, implementing the engine's
 * {@link dev.remedy.core.engine.ClusterOperations} port in memory, with a log of every call and injectable
 * failures. It lives in the light kit, not in remedy-simulation, because it is the reference implementation of
 * {@link dev.remedy.test.conformance.ClusterOperationsContract} and core's engine tests run on it.
 */
package dev.remedy.test.cluster;
