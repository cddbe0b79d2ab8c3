/**
 * Internal, not API: may change in any release.
 *
 * <p>SNMP over snmp4j for the agents: one session per action (a UDP socket and snmp4j's listener thread, closed at
 * the end), v1, v2c and v3 with a USM and security protocols of its own (no JVM-wide snmp4j state), GET, SET and
 * bounded walks, each request retried a bounded number of times and never past the action's deadline. No message
 * holds a community or a passphrase, and no snmp4j object that holds one (a target, a USM user) is ever printed.
 */
package dev.remedy.fence.snmp.internal.session;
