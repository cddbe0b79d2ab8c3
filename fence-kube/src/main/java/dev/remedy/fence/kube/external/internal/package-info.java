/**
 * Internals of {@link dev.remedy.fence.kube.external.KubeExternalRemediations}: how a remedy becomes a Kubernetes
 * object (a template instantiated, an inline object, a Job), how its progress is read, and the node annotations that
 * let a restarted operator find it again. Not an API: anything here may change.
 */
package dev.remedy.fence.kube.external.internal;
