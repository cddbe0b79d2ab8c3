/**
 * Shared support for remedy's configuration readers (fence topology, policies): YAML and JSON documents read
 * strictly into a parser-neutral {@link dev.remedy.config.ConfigNode} tree by
 * {@link dev.remedy.config.ConfigDocuments}, and the helpers that give every problem its document path and a
 * "did you mean" hint ({@link dev.remedy.config.ConfigNames}). Readers walk the tree by hand so that they can
 * report every problem of a file at once. No signature here mentions the parser (Jackson).
 */
package dev.remedy.config;
