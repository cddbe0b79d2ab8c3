/**
 * What the operator provides the self-node-remediation node agents: {@link
 * dev.remedy.fence.kube.nodeagent.PeerCertificates}, the Secret of their peers' mutual TLS.
 */
package dev.remedy.fence.kube.nodeagent;
