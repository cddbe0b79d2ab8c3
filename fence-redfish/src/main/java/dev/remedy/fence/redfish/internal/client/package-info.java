/**
 * Internal, not API: may change in any release; use {@link dev.remedy.fence.redfish.RedfishFenceAgentProvider} and
 * {@link dev.remedy.fence.redfish.RedfishPduAgentProvider} instead.
 *
 * <p>A small asynchronous Redfish client over {@code java.net.http}: one login per run (a SessionService session,
 * logged out in every case, or HTTP Basic), a timeout on every request, {@code 503 Retry-After} and one re-login
 * after a {@code 401} inside the caller's deadline, task monitors followed, and error bodies
 * ({@code @Message.ExtendedInfo}) turned into messages. TLS verification is on unless the caller pins a
 * certificate, gives a CA bundle, or explicitly turns it off.
 *
 * <p>What the service sends is read defensively: bodies up to a limit and no further ({@code BoundedBody}), JSON
 * within depth and length limits and of the types the Redfish schemas give ({@code RedfishJson}), links kept on the
 * configured service, and the service's text cut and made one line before it goes into a message ({@code Text}).
 * Anything else is a malformed response: a {@code RedfishException} of kind {@code SERVICE}.
 */
package dev.remedy.fence.redfish.internal.client;
