/** The operator's internals: its HTTP endpoint and the wiring of the Kubernetes pieces. */
package dev.remedy.fence.kube.operator.internal;
