/**
 * A Redfish service simulator for tests, demos and benchmarks of Redfish clients (the {@code redfish} fence
 * agent).
 *
 * <p>{@link dev.remedy.simulators.redfish.RedfishSimulator} serves, on a loopback port over HTTP or HTTPS (a
 * self-signed certificate generated at start, see {@link dev.remedy.simulators.redfish.SimulatorCertificate}), the
 * resources a fence agent uses: the service root, ComputerSystems
 * ({@link dev.remedy.simulators.redfish.SimulatedSystem}) and their {@code ComputerSystem.Reset} action, the
 * SessionService, asynchronous Reset task monitors, and rack PDUs whose outlets
 * ({@link dev.remedy.simulators.redfish.SimulatedOutlet}) take {@code Outlet.PowerControl}. Each system and outlet
 * exposes a {@link dev.remedy.test.PowerTarget}. {@link dev.remedy.simulators.redfish.RedfishFaults} injects slow
 * answers, error statuses, 503 with {@code Retry-After}, expired sessions, broken JSON, asynchronous resets,
 * credentials echoed in error replies, answers of any status, headers and bytes for one path, and resources padded
 * to any size, streamed without being held.
 *
 * <p>Choices where the specification leaves room: the service root and {@code /redfish} answer without
 * credentials, as does {@code POST /redfish/v1/SessionService/Sessions}; everything else needs an
 * {@code X-Auth-Token} (which wins when both are sent) or HTTP Basic, else 401 with
 * {@code WWW-Authenticate: Basic realm="redfish"}. A session beyond the limit answers 503
 * {@code Base.1.8.SessionLimitExceeded}. A refused ResetType answers 400 with error code
 * {@code Base.1.8.ActionParameterNotSupported} and extended message {@code Base.1.8.ActionParameterValueNotInList}.
 * A synchronous Reset answers 204; a finished task monitor answers 204 (and keeps answering it).
 * {@code Location} headers carry paths, which clients resolve against the base URI.
 *
 * <p>The simulator is written from DMTF DSP0266 and the Redfish schemas, independently of the client in
 * {@code fence-redfish}, so that the two check each other.
 */
package dev.remedy.simulators.redfish;
