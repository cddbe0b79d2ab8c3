/** Embedding the engine in an operator: fence configuration from YAML, crash-safe state in JSON files. */
package dev.remedy.examples.engine;
