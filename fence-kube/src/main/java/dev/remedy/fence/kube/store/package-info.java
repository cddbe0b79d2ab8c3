/**
 * Fence records in the cluster: the cluster-scoped {@code NodeFence} custom resource ({@code remedy.dev/v1alpha1}),
 * its CRD ({@link dev.remedy.fence.kube.store.NodeFenceCrd}), the compare-and-set
 * {@link dev.remedy.fence.kube.store.KubeFenceStateStore}, and admin commands given as annotations on a NodeFence
 * ({@link dev.remedy.fence.kube.store.AdminAnnotations}).
 */
package dev.remedy.fence.kube.store;
