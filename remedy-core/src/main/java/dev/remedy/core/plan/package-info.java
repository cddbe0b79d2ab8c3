/**
 * The plan a fence flow runs for one node, as values: a {@link dev.remedy.core.plan.NodePlan} has a
 * {@link dev.remedy.core.plan.StepPlan} per {@link dev.remedy.core.plan.FenceStep} (levels tried in order, methods
 * of a level all required), each method a {@link dev.remedy.core.plan.ResolvedMethod} with its complete agent
 * configuration. The engine finds plans through the {@link dev.remedy.core.plan.PlanSource} port; the fence
 * configuration ({@link dev.remedy.core.topology.FenceConfiguration}) is one, a source of your own is another.
 */
package dev.remedy.core.plan;
