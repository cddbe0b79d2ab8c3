/**
 * IPMI v2.0 (RMCP+, lanplus) fencing with a native client: session setup (RAKP), chassis status and control,
 * non-blocking UDP for many BMCs on few threads. The agent arrives with its own issue; this module is the
 * place it builds in.
 */
package dev.remedy.fence.ipmi;
