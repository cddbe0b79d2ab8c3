/**
 * The built-in {@code fake} agent and its in-memory power targets: a complete agent (login, command, poll until
 * confirmed, deadlines, interruption) against simulated machines, for demos, policy tests and for proving the
 * conformance kit itself.
 */
package dev.remedy.test.fake;
