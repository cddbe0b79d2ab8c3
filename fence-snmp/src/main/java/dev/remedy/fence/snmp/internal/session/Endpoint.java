package dev.remedy.fence.snmp.internal.session;

import java.util.Objects;

/**
 * An SNMP agent to talk to: where it listens, the version and the credentials.
 *
 * @param host        host name or address
 * @param port        UDP port
 * @param version     the SNMP version
 * @param credentials a community for v1 and v2c, a user for v3
 */
public record Endpoint(String host, int port, SnmpVersion version, Credentials credentials) {

    /** Checks that the version and the credentials agree. */
    public Endpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(credentials, "credentials");
        if ((version == SnmpVersion.V3) != (credentials instanceof Credentials.User)) {
            throw new IllegalArgumentException("SNMP version " + version.code() + " does not match the credentials");
        }
    }

    /** The agent for messages, with no secret: {@code udp:10.0.0.5/161 (SNMP v2c)}. */
    public String describe() {
        String who = credentials instanceof Credentials.User user ? " user " + user.name() + ", "
                + user.level().code() : "";
        return "udp:" + host + "/" + port + " (SNMP v" + version.code() + who + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
