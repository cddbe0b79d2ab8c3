/** Kubernetes Events for what remedy decides and does, aggregated into series. */
package dev.remedy.fence.kube.events;
