/**
 * A simulated cluster for engine and policy tests: nodes with readiness, cordons, taints and pods, implementing
 * the engine's {@link dev.remedy.core.engine.ClusterOperations} port in memory, with a log of every call and
 * injectable failures.
 */
package dev.remedy.testkit.cluster;
