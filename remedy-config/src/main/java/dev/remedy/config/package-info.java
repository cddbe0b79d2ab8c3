/**
 * The one way remedy reads a configuration file: the fence configuration and policies (remedy-core), scenarios
 * (the policy harness) and device profiles (fence-ssh, which depends on remedy-spi and this module only).
 *
 * <ul>
 *   <li>{@link dev.remedy.config.ConfigDocuments} reads YAML or JSON strictly (a key given twice is an error; a
 *       syntax error has its line and column and never quotes the document) into a parser-neutral
 *       {@link dev.remedy.config.ConfigNode} tree, which readers walk by hand so that they report every problem of a
 *       file at once.</li>
 *   <li>{@link dev.remedy.config.ConfigProblems} collects a document's problems, each a
 *       {@link dev.remedy.spi.config.ConfigProblem} with the file and its path ({@code policies[0].escalation[1]
 *       .timeout}), and holds the checks every reader shares: the document, keys (with "did you mean"), mappings,
 *       lists, text, single values, durations (as {@link dev.remedy.spi.config.Durations} reads an agent's), whole
 *       numbers and flags.</li>
 *   <li>{@link dev.remedy.config.SelectorReader} reads every node selector and label set, as a
 *       {@code matchLabels} mapping or {@code key=value} text, into a {@link dev.remedy.config.NodeSelector},
 *       checking label keys and values by Kubernetes' rules ({@link dev.remedy.config.Labels}).</li>
 *   <li>{@link dev.remedy.config.profiles} holds what the agents with device profiles as data (fence-ssh,
 *       fence-snmp) share: the catalog of built-in profiles with a user's {@code profile_file} on top, and the
 *       resolution of an agent's {@code profile} parameter.</li>
 *   <li>{@link dev.remedy.config.ConfigNames} writes paths ({@code a.b}, {@code a["x.y/z"]}, {@code a[0]}), hints
 *       and what a node is ({@code a mapping}, never its value, which may be a secret).</li>
 * </ul>
 *
 * No signature here mentions the parser (Jackson).
 */
package dev.remedy.config;
