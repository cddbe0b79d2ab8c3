/** The node agent's implementation details: the watchdog fallbacks, the peer protocol's wire format. */
package dev.remedy.nodeagent.internal;
