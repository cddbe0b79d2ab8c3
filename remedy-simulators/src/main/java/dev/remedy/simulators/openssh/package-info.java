/**
 * Debian's OpenSSH server as a real SSH peer for integration tests of SSH fence agents.
 *
 * <ul>
 *   <li>{@link dev.remedy.simulators.openssh.OpenSshServerProcess} runs {@code /usr/sbin/sshd} as a child process on
 *       a free loopback port with its own configuration, host key and local user, and with a forced command that
 *       emulates the CLI of an APC switched rack PDU (section 1 of the fence-ssh device contract). Outlet states
 *       live in a file that the test reads and writes.</li>
 *   <li>{@link dev.remedy.simulators.openssh.OpenSshOptions} chooses the user, password, host key type and outlet
 *       count.</li>
 * </ul>
 *
 * The embedded Apache MINA simulators serve the same contract inside the JVM; this server is the implementation
 * nobody on the team wrote, so that an agent's ITs meet real OpenSSH authentication, host keys and PTY handling.
 */
package dev.remedy.simulators.openssh;
