/**
 * Internal, not API: may change in any release; use {@link dev.remedy.fence.ipmi.IpmiFenceAgentProvider}
 * instead.
 *
 * <p>IPMI v2.0 RMCP+ (lanplus) wire format and session cryptography, without any network code: cipher suites,
 * RAKP key derivation ({@link dev.remedy.fence.ipmi.internal.protocol.SessionKeys}), packet integrity and
 * confidentiality, and the RMCP, session and IPMI message framing. All classes are immutable or used by one
 * session at a time; none blocks. Malformed input is refused with a
 * {@link dev.remedy.fence.ipmi.internal.protocol.MalformedPacketException} naming the field and its offset; no
 * secret appears in any message or {@code toString()}.
 */
package dev.remedy.fence.ipmi.internal.protocol;
