/**
 * Internal, not API: may change in any release; write profiles as YAML and give them to the agents of
 * {@link dev.remedy.fence.ssh} in the {@code profile_file} parameter instead.
 *
 * <p>Device profiles as data: what a device's command line looks like (prompt, pager, confirmations, errors, the way
 * into its privileged mode) and
 * the commands of each action, read from YAML shipped in the jar or given by the user.
 */
package dev.remedy.fence.ssh.internal.profile;
