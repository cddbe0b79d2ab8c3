/**
 * remedy's published test harness. {@link dev.remedy.testkit.FakeTimeSource} replaces the clock;
 * {@link dev.remedy.testkit.PowerTarget} is what a test observes behind an agent's back. Sub-packages hold the
 * built-in {@code fake} agent with its in-memory power targets and the fence-agent conformance kit.
 */
package dev.remedy.testkit;
