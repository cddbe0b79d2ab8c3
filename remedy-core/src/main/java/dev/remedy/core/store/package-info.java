/**
 * Where fence records live: the {@link dev.remedy.core.store.FenceStateStore} port with optimistic concurrency,
 * an in-memory store and a JSON file store (one file per node, atomic replace, corrupt files quarantined).
 */
package dev.remedy.core.store;
