package dev.remedy.fence.redfish.internal.client;

/** How a connection authenticates. */
public enum AuthMode {
    /** A SessionService session ({@code X-Auth-Token}), logged out at the end; HTTP Basic if the service has none. */
    SESSION,
    /** HTTP Basic on every request (no session to log out). */
    BASIC
}
