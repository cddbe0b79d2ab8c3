/**
 * Internals of the Kubernetes-object fence agents: the connection (a client built lazily from the agent's
 * parameters, or the host's), API calls bounded by the action's deadline, the poll loop, and the views of
 * BareMetalHosts and VirtualMachines the agents read. Not API.
 */
package dev.remedy.fence.kube.agent.internal;
