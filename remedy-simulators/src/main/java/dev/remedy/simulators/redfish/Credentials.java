package dev.remedy.simulators.redfish;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * The credentials one request carried: a session token, HTTP Basic user and password, or none. A malformed
 * Basic header counts as Basic credentials that match no account.
 *
 * @param token the {@code X-Auth-Token}, or null
 * @param user the Basic user, or null
 * @param password the Basic password, or null
 */
record Credentials(String token, String user, String password) {

    static Credentials of(String tokenHeader, String authorizationHeader) {
        if (tokenHeader != null) {
            return new Credentials(tokenHeader.strip(), null, null);
        }
        if (authorizationHeader == null) {
            return new Credentials(null, null, null);
        }
        String header = authorizationHeader.strip();
        if (!header.toLowerCase(Locale.ROOT).startsWith("basic ")) {
            return new Credentials(null, "", "");
        }
        try {
            String pair = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
            int colon = pair.indexOf(':');
            return colon < 0 ? new Credentials(null, "", "")
                    : new Credentials(null, pair.substring(0, colon), pair.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return new Credentials(null, "", "");
        }
    }

    RedfishRequest.Auth kind() {
        if (token != null) {
            return RedfishRequest.Auth.SESSION;
        }
        return user != null ? RedfishRequest.Auth.BASIC : RedfishRequest.Auth.NONE;
    }

    @Override
    public String toString() {
        return "Credentials[" + kind() + (user == null ? "" : ", " + user) + "]";
    }
}
