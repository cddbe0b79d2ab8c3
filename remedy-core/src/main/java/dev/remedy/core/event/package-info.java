/**
 * What happened, as values: {@link dev.remedy.core.flow.FenceEvent} records for every transition, operation,
 * confirmation, refusal and alert reach a {@link dev.remedy.core.event.FenceEventListener} (subscribe one to the
 * engine; a listener that throws is logged and never changes a decision), and
 * {@link dev.remedy.core.event.FencingHistory} keeps a bounded, queryable history of operations. How the engine
 * delivers them lives in {@code dev.remedy.core.event.internal}: not API.
 */
package dev.remedy.core.event;
