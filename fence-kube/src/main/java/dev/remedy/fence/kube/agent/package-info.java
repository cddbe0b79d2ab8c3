/**
 * Fence agents whose targets are Kubernetes objects: {@link dev.remedy.fence.kube.agent.Metal3FenceAgentProvider}
 * ({@code metal3}: a metal3 BareMetalHost, through the bare-metal operator's reboot annotations) and
 * {@link dev.remedy.fence.kube.agent.KubeVirtFenceAgentProvider} ({@code kubevirt}: a KubeVirt VirtualMachine, as
 * {@code fence_kubevirt} does). Both are ServiceLoader entries; each also creates agents over the host's
 * {@code KubernetesClient}. The calls, polls and object views live in {@code dev.remedy.fence.kube.agent.internal}:
 * not API.
 */
package dev.remedy.fence.kube.agent;
