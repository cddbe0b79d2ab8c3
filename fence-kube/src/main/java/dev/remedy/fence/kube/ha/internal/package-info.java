/** Implementation details of {@link dev.remedy.fence.kube.ha}: the lease lock that tracks renewals. */
package dev.remedy.fence.kube.ha.internal;
