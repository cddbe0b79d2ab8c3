/**
 * A custom fence agent, as the README's "write a fence agent" section shows it: a provider registered for
 * {@link java.util.ServiceLoader}, an agent that drives a power-control program, and (in the tests) the
 * conformance kit run against a real script.
 */
package dev.remedy.examples.agent;
