/**
 * Fencing over SSH: PDUs, switch and storage ports, and host soft fencing, driven by device profiles that are
 * data. The agent arrives with its own issue; this module is the place it builds in.
 */
package dev.remedy.fence.ssh;
