/**
 * DMTF Redfish fencing over {@code java.net.http}: systems and PDU outlets, session login and logout, power
 * state confirmation. The agent arrives with its own issue; this module is the place it builds in.
 */
package dev.remedy.fence.redfish;
