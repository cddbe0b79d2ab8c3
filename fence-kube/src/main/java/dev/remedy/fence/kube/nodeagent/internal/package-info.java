/** Internals of the node agents' support: the certificates, built with Bouncy Castle. */
package dev.remedy.fence.kube.nodeagent.internal;
