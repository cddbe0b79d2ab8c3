package dev.remedy.simulators.redfish;

import java.util.Objects;

/**
 * An account of a simulated Redfish service, accepted both for HTTP Basic authentication and for creating
 * sessions. {@link #toString()} masks the password.
 *
 * @param name the user name, not blank
 * @param password the password, not empty
 */
public record RedfishUser(String name, String password) {

    /**
     * Validates the account.
     *
     * @throws IllegalArgumentException if the name is blank, the password empty, or the name contains a colon
     *     (HTTP Basic could not carry it)
     */
    public RedfishUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        if (name.isBlank() || name.indexOf(':') >= 0) {
            throw new IllegalArgumentException("user name '" + name + "' must be non-blank and contain no ':' "
                    + "(HTTP Basic separates user and password with it)");
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException("user '" + name + "': the password must not be empty");
        }
    }

    /** Whether {@code user} and {@code secret} are this account's credentials. */
    boolean matches(String user, String secret) {
        return name.equals(user) && password.equals(secret);
    }

    @Override
    public String toString() {
        return "RedfishUser[" + name + ", password=****]";
    }
}
