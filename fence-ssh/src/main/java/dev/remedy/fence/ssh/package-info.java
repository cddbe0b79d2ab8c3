/**
 * Fencing over SSH: the {@code ssh} (PDU outlets), {@code ssh-fabric} (switch and storage ports) and
 * {@code ssh-host} (soft fencing of the host itself) agents, over jsch sessions with verified host keys. This
 * package is the module's API: {@link dev.remedy.fence.ssh.SshFenceAgentProvider},
 * {@link dev.remedy.fence.ssh.SshFabricAgentProvider} and {@link dev.remedy.fence.ssh.SshHostAgentProvider}, the
 * ServiceLoader entries (or {@code new} one and call {@code create}).
 *
 * <p>The agents are driven by device profiles that are data: the built-in ones, chosen with the {@code profile}
 * parameter, and YAML files of your own given in {@code profile_file}. That YAML format (a {@code profiles} list; each
 * entry with {@code name}, {@code description}, {@code kind}, {@code prompt}, {@code plug}, {@code setup},
 * {@code pager}, {@code confirm}, {@code errors}, {@code status}, {@code on}, {@code off}, {@code list},
 * {@code reboot}, {@code exit}, {@code isolationPersists} and {@code enable}) is part of the API. A {@code confirm}
 * entry ({@code {pattern, send}}) may answer with a bare Enter: {@code send: ''} (Cisco's {@code [confirm]}); a pager's
 * {@code send} is a key and cannot be empty. {@code enable: {command, passwordPrompt, prompt}} is for a device that
 * logs in at an unprivileged prompt (Cisco user exec, {@code switch>}): when the first prompt after login does not
 * match {@code enable.prompt}, the agent types {@code command}, answers {@code passwordPrompt} with the
 * {@code enable_password} secret and expects {@code enable.prompt}; without the secret, or with one the device refuses,
 * the action fails saying so (the secret is in no message). The built-in {@code cisco-ios} has both.
 * {@code isolationPersists: true}, for fabric profiles only (default false), says that the isolation {@code off} makes
 * survives a reload of the device: the built-in {@code brocade-fos} disables ports persistently
 * ({@code portcfgpersistentdisable}) and {@code cisco-ios} saves the configuration ({@code write memory}) after
 * {@code shutdown} and {@code no shutdown}. A file with problems is refused by {@code create} with every problem
 * listed; {@link dev.remedy.fence.ssh.DeviceProfiles#check} checks a file on its own. Profile files are read as
 * boundedly as every remedy configuration ({@link dev.remedy.config.ConfigDocuments}), and whatever a profile's
 * {@code plug} form allows, a plug is refused unless it is letters, digits and {@code . _ - / : + @}, so that no plug
 * can carry a second command. The Java types that read and hold profiles, and the SSH sessions, live in
 * {@code dev.remedy.fence.ssh.internal}: not API.
 */
package dev.remedy.fence.ssh;
