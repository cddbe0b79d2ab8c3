/**
 * {@link dev.remedy.core.engine.ClusterOperations} on a Kubernetes API server, through the host's fabric8
 * {@code KubernetesClient}: {@link dev.remedy.fence.kube.cluster.KubeClusterOperations}.
 */
package dev.remedy.fence.kube.cluster;
