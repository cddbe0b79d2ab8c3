/** Micrometer metrics of remediations, fences, agents and watched nodes: {@link dev.remedy.fence.kube.metrics.RemedyMetrics}. */
package dev.remedy.fence.kube.metrics;
