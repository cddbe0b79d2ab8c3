/**
 * Internal, not API: may change in any release; use the agents of {@link dev.remedy.fence.ssh} instead.
 *
 * <p>SSH sessions to devices with jsch: modern algorithms only, host keys verified (known_hosts or a pinned
 * fingerprint), key or password login, and an interactive shell read with bounded waits.
 */
package dev.remedy.fence.ssh.internal.session;
