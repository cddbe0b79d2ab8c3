/**
 * Where fence records live: the {@link dev.remedy.core.store.FenceStateStore} port with optimistic concurrency,
 * an in-memory store and a JSON file store (one file per node, atomic replace, corrupt files quarantined).
 * {@link dev.remedy.core.store.FenceRecordJson} gives the record's JSON document to stores kept elsewhere.
 */
package dev.remedy.core.store;
