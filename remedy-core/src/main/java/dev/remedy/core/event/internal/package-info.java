/**
 * Internal, not API: may change in any release; subscribe a {@link dev.remedy.core.event.FenceEventListener} to the
 * {@link dev.remedy.core.engine.FenceEngine} instead.
 *
 * <p>How the engine delivers events: to every listener in turn, each isolated, so that a listener that throws is
 * logged and never changes a decision or keeps the others from their events.
 */
package dev.remedy.core.event.internal;
