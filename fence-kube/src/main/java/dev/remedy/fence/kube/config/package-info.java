/**
 * Configuration from the cluster. {@link dev.remedy.fence.kube.config.ClusterConfiguration} watches the policies,
 * the fence configuration and the Node remedy design's per-node {@code fence-config-<node>} ConfigMaps in the
 * operator's namespace, checks every change with remedy's own loaders and the agents' checks, and hands a valid one
 * to the host; a refused change keeps the running configuration and is reported as a Warning Event naming every
 * problem. {@link dev.remedy.fence.kube.config.KubeSecretResolver} reads {@code {secret: {name: N, key: K}}}
 * references from Secrets of the operator's namespace.
 */
package dev.remedy.fence.kube.config;
