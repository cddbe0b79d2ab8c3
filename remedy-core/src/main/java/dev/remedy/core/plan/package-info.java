/**
 * What a fence flow runs on one node: its {@link dev.remedy.core.plan.NodePlan}, a
 * {@link dev.remedy.core.plan.StepPlan} per {@link dev.remedy.core.plan.FenceStep} (levels tried in order, the
 * methods of a level all required), each method a {@link dev.remedy.core.plan.ResolvedMethod} with its agent's
 * complete configuration, and the {@link dev.remedy.core.plan.PlanSource} the engine asks for a node's plan. The
 * fence configuration ({@code topology}) builds plans; the flow and the engine run them. Values only, no
 * dependency on the rest of remedy-core.
 */
package dev.remedy.core.plan;
