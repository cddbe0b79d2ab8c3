/** Conversion of fabric8 Nodes to remedy's node status and readiness, reusing what did not change. */
package dev.remedy.fence.kube.watch.internal;
