/**
 * Kubernetes cluster fencing (cordon, taints, workload release) and the Kubernetes side of the engine (state in
 * custom resources, leases). Arrives with its own issue; this module is the place it builds in.
 */
package dev.remedy.fence.kube;
