/**
 * What happened, as values: {@link dev.remedy.core.flow.FenceEvent} records for every transition, operation,
 * confirmation, refusal and alert; isolated listeners; and a bounded, queryable fencing history.
 */
package dev.remedy.core.event;
