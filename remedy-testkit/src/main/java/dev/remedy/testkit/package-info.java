/**
 * remedy's published test harness. {@link dev.remedy.testkit.FakeTimeSource} replaces the clock;
 * {@link dev.remedy.testkit.PowerTarget} is what a test observes behind an agent's back. Sub-packages hold the
 * built-in {@code fake} agent with its in-memory power targets, the fence-agent conformance kit, and IPMI peers
 * ({@code ipmi}: the real {@code ipmi_sim} as a child process, and a simulator of many BMCs in one JVM).
 */
package dev.remedy.testkit;
