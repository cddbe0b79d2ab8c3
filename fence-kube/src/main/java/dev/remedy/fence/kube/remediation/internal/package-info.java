/** Internals of the remediation controller: spec to plan, conditions, Machines, Events and storm admission. */
package dev.remedy.fence.kube.remediation.internal;
