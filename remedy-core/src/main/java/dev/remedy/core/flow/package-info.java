/**
 * The NodeFence automaton as a pure function: {@link dev.remedy.core.flow.FenceFlow#apply} takes a persisted
 * {@link dev.remedy.core.flow.NodeFence}, the node's {@link dev.remedy.core.plan.NodePlan}, one
 * {@link dev.remedy.core.flow.Observation} and the time, and returns the next record with the
 * {@link dev.remedy.core.flow.Effect}s to run and the {@link dev.remedy.core.flow.FenceEvent}s to publish. It
 * does no I/O, reads no clock and starts no thread; the engine persists the new record before running the effects.
 *
 * <p>Each {@link dev.remedy.core.flow.Stage} has a small handler (package-private) for the operation it issues, the
 * results of that operation and what a node reporting Ready changes; every stage change is checked against the
 * stage table of {@link dev.remedy.core.flow.Transitions}, which refines the design's table of states.
 */
package dev.remedy.core.flow;
