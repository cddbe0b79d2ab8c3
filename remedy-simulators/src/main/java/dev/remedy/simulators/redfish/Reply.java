package dev.remedy.simulators.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An answer before it goes on the wire: a status, extra headers and an optional JSON body.
 *
 * @param status the HTTP status
 * @param headers extra headers (Content-Type and OData-Version are added on the wire)
 * @param body the JSON body, or null for none
 */
record Reply(int status, Map<String, String> headers, JsonNode body) {

    /** The message registry prefix of every error. */
    static final String BASE = "Base.1.8.";

    Reply {
        headers = Map.copyOf(headers);
    }

    static Reply ok(JsonNode body) {
        return new Reply(200, Map.of(), body);
    }

    static Reply noContent() {
        return new Reply(204, Map.of(), null);
    }

    /** This reply with one more header. */
    Reply with(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Reply(status, more, body);
    }

    /**
     * A Redfish error: {@code {"error": {"code", "message", "@Message.ExtendedInfo": [...]}}} with one extended
     * message whose id is {@code Base.1.8.<messageId>}.
     */
    static Reply error(int status, String code, String messageId, String message, String resolution) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode info = json.objectNode();
        info.put("@odata.type", "#Message.v1_1_1.Message");
        info.put("MessageId", BASE + messageId);
        info.put("Message", message);
        info.put("MessageSeverity", status >= 500 ? "Critical" : "Warning");
        info.put("Resolution", resolution);
        ObjectNode error = json.objectNode();
        error.put("code", BASE + code);
        error.put("message", message);
        ArrayNode extended = error.putArray("@Message.ExtendedInfo");
        extended.add(info);
        ObjectNode body = json.objectNode();
        body.set("error", error);
        return new Reply(status, Map.of(), body);
    }

    /** A Redfish error whose code and extended message id are the same. */
    static Reply error(int status, String messageId, String message, String resolution) {
        return error(status, messageId, messageId, message, resolution);
    }

    static Reply notFound(String path) {
        return error(404, "ResourceMissingAtURI", "The resource at the URI '" + path + "' was not found.",
                "Place a valid resource at the URI or correct the URI and resubmit the request.");
    }

    static Reply unauthorized(String why) {
        return error(401, "NoValidSession", why, "Send valid credentials: an X-Auth-Token from "
                + "POST /redfish/v1/SessionService/Sessions, or HTTP Basic.")
                .with("WWW-Authenticate", "Basic realm=\"redfish\"");
    }

    static Reply methodNotAllowed(String method, String path, String allow) {
        return error(405, "OperationNotAllowed", "The method " + method + " is not allowed on '" + path
                + "'; allowed: " + allow + ".", "Use one of the allowed methods.")
                .with("Allow", allow);
    }

    static Reply malformedJson(String detail) {
        return error(400, "MalformedJSON", "The request body submitted was malformed JSON and could not be "
                + "parsed by the receiving service: " + detail, "Ensure that the request body is valid JSON and "
                + "resubmit the request.");
    }

    static Reply missingParameter(String parameter, String action) {
        return error(400, "ActionParameterMissing", "The action " + action + " requires the parameter "
                + parameter + " to be present in the request body.", "Supply the action with the required "
                + "parameter in the request body when the request is resubmitted.");
    }
}
