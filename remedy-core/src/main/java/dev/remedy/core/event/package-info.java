/**
 * Delivering and keeping what happened: the {@link dev.remedy.core.flow.FenceEvent}s the flow emits go to isolated
 * listeners (a throwing listener changes nothing) and into a bounded, queryable fencing history.
 */
package dev.remedy.core.event;
