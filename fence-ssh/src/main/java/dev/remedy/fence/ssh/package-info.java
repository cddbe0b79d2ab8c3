/**
 * Fencing over SSH: the {@code ssh} (PDU outlets), {@code ssh-fabric} (switch and storage ports) and
 * {@code ssh-host} (soft fencing of the host itself) agents, driven by device profiles that are data
 * ({@link dev.remedy.fence.ssh.profile}), over jsch sessions with verified host keys
 * ({@link dev.remedy.fence.ssh.session}).
 */
package dev.remedy.fence.ssh;
