/**
 * The imperative shell around the pure {@link dev.remedy.core.flow.FenceFlow}: {@link dev.remedy.core.engine.FenceEngine}
 * persists every new record before it runs the record's effects (write-ahead), runs agent actions and cluster
 * actions on an injected executor, feeds their results back, and recovers in-flight operations after a crash.
 * The world is reached through ports: {@link dev.remedy.core.engine.ClusterOperations},
 * {@link dev.remedy.core.store.FenceStateStore}, {@link dev.remedy.core.plan.PlanSource} and the agents.
 */
package dev.remedy.core.engine;
