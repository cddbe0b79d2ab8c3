package dev.remedy.fence.redfish.internal.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the JSON a Redfish service sends, and from it the values a fence agent uses, each of the type the Redfish
 * schema gives it. Parsing is bounded (nesting depth, number and name length, document length), so no body can
 * exhaust the stack or the heap. A body that is not JSON, a resource that is not an object, or a property of another
 * type than the schema's is a malformed response: a {@link RedfishException} of kind
 * {@link RedfishException.Kind#SERVICE} that names the resource, the property and what was found. An absent or
 * {@code null} property is absent. Thread-safe.
 */
public final class RedfishJson {

    /**
     * How deep objects and arrays may nest: Redfish resources nest a few levels (an action's allowable values sit at
     * the fourth), OEM sections a few more.
     */
    public static final int MAX_NESTING_DEPTH = 64;
    /** The longest number, in characters: ids and counts are short, so a longer one is garbage or an attack. */
    public static final int MAX_NUMBER_LENGTH = 100;
    /** The longest property name, in characters. */
    public static final int MAX_NAME_LENGTH = 1_000;

    /** The shared mapper, with the read limits above; text after the JSON value is refused (thread-safe). */
    public static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH)
                    .maxNumberLength(MAX_NUMBER_LENGTH).maxNameLength(MAX_NAME_LENGTH).build())
            .build()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private RedfishJson() {
    }

    /**
     * The resource in a response body: a JSON object, or a missing node for an empty body.
     *
     * @param where the service and resource for messages, e.g. {@code GET https://10.0.0.5:443/redfish/v1/}
     * @param status the HTTP status of the response
     * @throws RedfishException of kind SERVICE if the body is not JSON, breaks a read limit, or is not an object
     */
    public static JsonNode parse(byte[] body, String where, int status) {
        if (body == null || body.length == 0) {
            return MissingNode.getInstance();
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw RedfishException.malformed(status, where + " answered with a body that is not valid JSON ("
                    + Text.excerpt(e.getOriginalMessage(), Text.DETAIL) + " at byte " + offset(e) + "): "
                    + ErrorBody.excerpt(body), e);
        } catch (IOException e) {
            throw RedfishException.malformed(status, where + " answered with a body that cannot be read: "
                    + Text.excerpt(e.getMessage(), Text.DETAIL), e);
        }
        if (node.isMissingNode()) {
            return node;
        }
        if (!node.isObject()) {
            throw RedfishException.malformed(status, where + " answered with a JSON " + typeOf(node)
                    + " where a Redfish resource (an object) belongs: " + ErrorBody.excerpt(body));
        }
        return node;
    }

    /**
     * The string at {@code fields} below {@code resource}, if present and not {@code null}.
     *
     * @param where the resource, for messages
     * @throws RedfishException of kind SERVICE if a field on the way is not an object or the value not a string
     */
    public static Optional<String> text(JsonNode resource, String where, String... fields) {
        JsonNode value = at(resource, where, fields);
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw wrongType(where, String.join(".", fields), value, "a string");
        }
        return Optional.of(value.asText());
    }

    /**
     * The strings of the array at {@code fields} below {@code resource}; empty if it is absent or {@code null}.
     *
     * @throws RedfishException of kind SERVICE if it is not an array of strings
     */
    public static List<String> strings(JsonNode resource, String where, String... fields) {
        JsonNode array = at(resource, where, fields);
        List<String> out = new ArrayList<>();
        if (array.isMissingNode() || array.isNull()) {
            return out;
        }
        String name = String.join(".", fields);
        if (!array.isArray()) {
            throw wrongType(where, name, array, "an array of strings");
        }
        for (int i = 0; i < array.size(); i++) {
            JsonNode item = array.get(i);
            if (!item.isTextual()) {
                throw wrongType(where, name + "[" + i + "]", item, "a string");
            }
            out.add(item.asText());
        }
        return out;
    }

    /**
     * The {@code @odata.id} of the object at {@code fields} below {@code resource} (a link to another resource), if
     * present.
     *
     * @throws RedfishException of kind SERVICE if the object or the link is of another type, or the link is blank
     */
    public static Optional<String> link(JsonNode resource, String where, String... fields) {
        String[] path = new String[fields.length + 1];
        System.arraycopy(fields, 0, path, 0, fields.length);
        path[fields.length] = "@odata.id";
        Optional<String> link = text(resource, where, path);
        if (link.isPresent() && link.get().isBlank()) {
            throw RedfishException.malformed(0, where + " has an empty " + String.join(".", path)
                    + ": a link must name a resource");
        }
        return link;
    }

    /**
     * The {@code @odata.id} of every member of a collection, in order.
     *
     * @throws RedfishException of kind SERVICE if {@code Members} is not an array of links
     */
    public static List<String> members(JsonNode collection, String where) {
        JsonNode members = at(collection, where, "Members");
        List<String> out = new ArrayList<>();
        if (members.isMissingNode() || members.isNull()) {
            return out;
        }
        if (!members.isArray()) {
            throw wrongType(where, "Members", members, "an array of links");
        }
        for (int i = 0; i < members.size(); i++) {
            String member = "Members[" + i + "]";
            if (!members.get(i).isObject()) {
                throw wrongType(where, member, members.get(i), "a link ({\"@odata.id\": ...})");
            }
            out.add(link(members.get(i), where + " " + member).orElseThrow(() -> RedfishException.malformed(0,
                    where + " has a " + member + " without @odata.id: a collection member must link to its resource")));
        }
        return out;
    }

    /** The node at {@code fields} below {@code node}, missing if absent; each step on the way must be an object. */
    private static JsonNode at(JsonNode node, String where, String... fields) {
        JsonNode at = node;
        for (int i = 0; i < fields.length; i++) {
            if (at.isMissingNode() || at.isNull()) {
                return MissingNode.getInstance();
            }
            if (!at.isObject()) {
                throw wrongType(where, i == 0 ? "the resource" : String.join(".", List.of(fields).subList(0, i)), at,
                        "an object");
            }
            at = at.path(fields[i]);
        }
        return at;
    }

    private static RedfishException wrongType(String where, String property, JsonNode found, String expected) {
        return RedfishException.malformed(0, where + " has " + property + " of the wrong type: expected " + expected
                + ", found " + typeOf(found) + " " + Text.excerpt(found.isContainerNode() ? "" : found.asText(),
                Text.VALUE));
    }

    /** The JSON type of a node, for messages: object, array, string, number, boolean or null. */
    static String typeOf(JsonNode node) {
        JsonNodeType type = node.getNodeType();
        return switch (type) {
            case OBJECT, POJO -> "object";
            case ARRAY -> "array";
            case STRING, BINARY -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case NULL -> "null";
            case MISSING -> "nothing";
        };
    }

    private static long offset(JsonProcessingException e) {
        return e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
    }
}
