/**
 * The Node informer: {@link dev.remedy.fence.kube.watch.NodeWatcher} feeds every Node change to the policy
 * controller and the node's readiness to the fence engine, honouring medik8s' exclusion label and
 * confirmed-healthy annotation.
 */
package dev.remedy.fence.kube.watch;
