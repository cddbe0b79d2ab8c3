/**
 * How {@link dev.remedy.fence.kube.cluster.KubeClusterOperations} does its work: optimistic read-modify-write of
 * Node taints, the paged release of a node's workloads, and the ConfigMap backup of a deleted Node. Not an API:
 * these types may change in any release.
 */
package dev.remedy.fence.kube.cluster.internal;
