/**
 * Remedy policies: which nodes a policy covers, which conditions make a node unhealthy and for how long, and
 * the escalation ladder of remedies; evaluated against {@link dev.remedy.core.policy.NodeStatus} observations.
 */
package dev.remedy.core.policy;
