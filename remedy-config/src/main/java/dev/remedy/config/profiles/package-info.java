/**
 * Device profiles as data, shared by the agents that describe devices in YAML (fence-ssh, fence-snmp): a
 * {@link dev.remedy.config.profiles.Catalog} of the profiles shipped in an agent's jar with a user's
 * {@code profile_file} on top, read by the agent's {@link dev.remedy.config.profiles.ProfileFormat} entry by entry
 * ({@link dev.remedy.config.profiles.ProfileEntry}), and the agent's {@code profile} parameter resolved against it
 * ({@link dev.remedy.config.profiles.ProfileParameters}). What a profile holds stays in each agent module.
 */
package dev.remedy.config.profiles;
