/**
 * An SSH device simulator for tests, demos and benchmarks of the {@code fence-ssh} agent.
 *
 * <p>{@link dev.remedy.simulators.ssh.SshDeviceSimulator} serves, with Apache MINA sshd on a loopback port, the CLI
 * of a {@link dev.remedy.simulators.ssh.DeviceKind}: an APC PDU (AOS), a Cisco IOS-style switch, a Brocade FOS
 * switch or a Linux host, as the SSH dialogue contract of {@code fence-ssh} describes them (prompts, banner,
 * replies, paging, confirmations, errors). {@link dev.remedy.simulators.ssh.SshDeviceSpec} sets it up;
 * {@link dev.remedy.simulators.ssh.SimulatedDevice} exposes each outlet or port as a
 * {@link dev.remedy.simulators.ScheduledPowerTarget} and a Linux host's reboots and kubelet;
 * {@link dev.remedy.simulators.ssh.SshFaults} injects hangs, error replies and delays.
 *
 * <p>Choices where the contract leaves room: a listing pages over every line the command prints (APC
 * {@code E000: Success}, IOS blank line and header included); at {@code --More--}, {@code q} stops and any other
 * key continues, the prompt being erased with CR, blanks, CR either way; an exec request runs one command line
 * without echo, banner, prompt or paging and exits with status 0; the end of the client's input ends a session
 * once its last command is answered, unless the session hangs; {@code exit} closes the channel (clients then
 * disconnect). The sysrq reboot drops the connection as soon as the echo of its line is written. A restarting
 * kubelet is {@code activating} for the power delay. An IOS switch with an enable secret logs in at user exec
 * ({@code remedy-sw1>}) and asks {@code Password: } (not echoed) after {@code enable}; with confirmations, its
 * {@code write memory} asks {@code Overwrite the previous NVRAM configuration?[confirm]} and saves only on a bare
 * Enter. The simulator is written from the contract, independently of the agent's profiles, so that the two check
 * each other.
 */
package dev.remedy.simulators.ssh;
