/**
 * remedy's light test kit (remedy-core, JUnit 5's API and AssertJ, nothing else).
 * {@link dev.remedy.test.FakeTimeSource} replaces the clock; {@link dev.remedy.test.PowerTarget} is what a test
 * observes behind an agent's back. Sub-packages hold the built-in {@code fake} agent with its in-memory power
 * targets ({@code fake}), the in-memory cluster ({@code cluster}), and the conformance and contract kits that agents,
 * stores and cluster implementations extend ({@code conformance}). Device simulators live in remedy-simulators,
 * the policy harness in remedy-simulation.
 */
package dev.remedy.test;
