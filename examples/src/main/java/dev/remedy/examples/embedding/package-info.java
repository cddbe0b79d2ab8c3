/** Embedding remedy: find an agent by its type id and fence one machine, as the README's first code block shows. */
package dev.remedy.examples.embedding;
