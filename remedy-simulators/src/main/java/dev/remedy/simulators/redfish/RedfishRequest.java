package dev.remedy.simulators.redfish;

import java.util.Objects;

/**
 * One request a {@link RedfishSimulator} received, as kept in its {@link RedfishSimulator#requestLog()}.
 *
 * @param method the HTTP method, for example {@code "GET"}
 * @param path the request path without query, for example {@code "/redfish/v1/Systems/node-1"}
 * @param status the status answered (0: no answer: the connection was dropped, or the request was held unanswered)
 * @param auth how the request authenticated (the credentials it presented, whether or not they were valid)
 */
public record RedfishRequest(String method, String path, int status, Auth auth) {

    /** The credentials a request carried. */
    public enum Auth {
        /** No credentials. */
        NONE,
        /** An {@code Authorization: Basic} header. */
        BASIC,
        /** An {@code X-Auth-Token} header (it wins when both are present). */
        SESSION
    }

    /** Validates the entry. */
    public RedfishRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(auth, "auth");
    }

    @Override
    public String toString() {
        return method + " " + path + " -> " + status + " (" + auth + ")";
    }
}
