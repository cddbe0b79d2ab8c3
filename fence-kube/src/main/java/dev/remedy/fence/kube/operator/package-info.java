/**
 * remedy as a Kubernetes operator: {@link dev.remedy.fence.kube.operator.RemedyOperator} runs the pieces of
 * fence-kube together on the host's client, embedded or as {@code remedy operator}.
 */
package dev.remedy.fence.kube.operator;
