/** The aggregation of Events into series and the text limits of Events. */
package dev.remedy.fence.kube.events.internal;
