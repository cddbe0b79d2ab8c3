/**
 * The Kubernetes side of remedy, on the host's fabric8 {@code KubernetesClient}: {@code cluster} changes nodes
 * (cordon, taints, workload release, node backup), {@code store} keeps fence records in {@code NodeFence} custom
 * resources, {@code ha} holds shard and node Leases, {@code watch} feeds Node changes to the policies and the engine,
 * {@code external} drives other remediators (remediation templates, remedy Jobs), {@code events} and {@code metrics}
 * report, {@code config} reads configuration from ConfigMaps and Secrets, and {@code operator} runs them together.
 */
package dev.remedy.fence.kube;
