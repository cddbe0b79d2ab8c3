/**
 * Device profiles as data: what a device's command line looks like (prompt, pager, confirmations, errors) and
 * the commands of each action, read from YAML shipped in the jar or given by the user.
 */
package dev.remedy.fence.ssh.profile;
