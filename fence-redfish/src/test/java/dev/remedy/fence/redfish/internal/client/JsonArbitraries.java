package dev.remedy.fence.redfish.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators of what a Redfish service might send, for the response parsing properties: JSON values of any shape
 * (with the property names the agent reads, so that generated trees reach its readers), well-formed resources with
 * some properties of the wrong type, bodies that are not JSON, and header values.
 */
public final class JsonArbitraries {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper WRITER = new ObjectMapper();

    /** Property names the agent reads, and a few others. */
    private static final List<String> NAMES = List.of("@odata.id", "Id", "Name", "PowerState", "Members", "Actions",
            "#ComputerSystem.Reset", "#Outlet.PowerControl", "target", "ResetType@Redfish.AllowableValues",
            "PowerState@Redfish.AllowableValues", "Systems", "Links", "Sessions", "RedfishVersion", "TaskState",
            "Messages", "Message", "MessageId", "Resolution", "error", "code", "message", "@Message.ExtendedInfo",
            "PowerEquipment", "RackPDUs", "Outlets", "Oem", "", "é\u0000\u2028");

    private JsonArbitraries() {
    }

    /** Strings a service might send: Redfish values, links, empty, odd characters, control characters, long. */
    public static Arbitrary<String> strings() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of("On", "Off", "PoweringOn", "ForceOff", "GracefulShutdown", "node-1",
                        "/redfish/v1/Systems/node-1", "/redfish/v1/Systems", "Completed", "Exception")),
                Tuple.of(3, Arbitraries.strings().all().ofMaxLength(20)),
                Tuple.of(2, links()),
                Tuple.of(1, Arbitraries.strings().withCharRange(' ', '~').ofMinLength(500).ofMaxLength(5_000)),
                Tuple.of(1, Arbitraries.strings().withChars('\n', '\r', '\t', '\u001b', '\u0000', '\u2028', 'x')
                        .ofMaxLength(40)));
    }

    /** Values of a link ({@code @odata.id}, {@code target}, {@code Location}): good, relative, foreign, broken. */
    public static Arbitrary<String> links() {
        return Arbitraries.of("/redfish/v1/Systems/node-1", "/redfish/v1/Systems/node-1/", "Systems/node-1",
                "/redfish/v1/Systems/node-1/Actions/ComputerSystem.Reset", "/redfish/v1/TaskService/TaskMonitors/1",
                "http://192.0.2.1:1/redfish/v1/Systems/node-1", "//192.0.2.1/x", "https://[::1]:5/a?b=c#d",
                "/a b", "/%zz", "%", "http://[", "mailto:admin@example.com", "urn:x", "", " ", "?q", "#frag", "/",
                "..", "/../../etc/passwd", "\u0000", "/\u00e9\u2603", "x".repeat(3_000));
    }

    /** JSON values of any shape, at most {@code depth} containers deep. */
    public static Arbitrary<JsonNode> values(int depth) {
        Arbitrary<JsonNode> leaves = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(JSON.nullNode())),
                Tuple.of(1, Arbitraries.of(true, false).map(JSON::booleanNode)),
                Tuple.of(1, Arbitraries.integers().map(JSON::numberNode)),
                Tuple.of(1, Arbitraries.bigIntegers().between(BigInteger.TEN.pow(30).negate(), BigInteger.TEN.pow(30))
                        .map(JSON::numberNode)),
                Tuple.of(1, Arbitraries.doubles().map(JSON::numberNode)),
                Tuple.of(1, Arbitraries.of(new BigDecimal("1e400"), new BigDecimal("-1e-400"))
                        .map(JSON::numberNode)),
                Tuple.of(5, strings().map(JSON::textNode)));
        if (depth == 0) {
            return leaves;
        }
        Arbitrary<JsonNode> inner = Arbitraries.lazy(() -> values(depth - 1));
        Arbitrary<JsonNode> arrays = inner.list().ofMaxSize(4).map(items -> {
            ArrayNode array = JSON.arrayNode();
            items.forEach(array::add);
            return array;
        });
        Arbitrary<JsonNode> objects = Combinators.combine(Arbitraries.of(NAMES), inner).as(Tuple::of).list()
                .ofMaxSize(5).map(entries -> {
                    ObjectNode object = JSON.objectNode();
                    entries.forEach(entry -> object.set(entry.get1(), entry.get2()));
                    return object;
                });
        return Arbitraries.frequencyOf(Tuple.of(3, leaves), Tuple.of(1, arrays), Tuple.of(2, objects));
    }

    /** Mostly well-typed values of a property: the {@code good} ones, and sometimes anything. */
    public static Arbitrary<JsonNode> mostly(Arbitrary<JsonNode> good) {
        return Arbitraries.frequencyOf(Tuple.of(3, good), Tuple.of(1, values(2)));
    }

    /** A link object ({@code {"@odata.id": ...}}), mostly well-formed. */
    public static Arbitrary<JsonNode> linkObjects() {
        return mostly(links().map(link -> JSON.objectNode().put("@odata.id", link)));
    }

    /** Bodies that are JSON text of a value, or not JSON at all (bytes of any kind, cut or deeply nested). */
    public static Arbitrary<byte[]> bodies(Arbitrary<JsonNode> json) {
        return Arbitraries.frequencyOf(
                Tuple.of(6, json.map(JsonArbitraries::bytes)),
                Tuple.of(1, json.map(JsonArbitraries::bytes).map(b -> Arrays.copyOf(b, b.length / 2))),
                Tuple.of(2, Arbitraries.bytes().array(byte[].class).ofMaxSize(200)),
                Tuple.of(1, Arbitraries.of("[", "{\"a\":", "\"")
                        .flatMap(open -> Arbitraries.integers().between(100, 200_000)
                                .map(depth -> open.repeat(depth).getBytes(StandardCharsets.US_ASCII)))),
                Tuple.of(1, Arbitraries.of("{\"PowerState\": 1" + "0".repeat(5_000) + "}",
                        "{\"PowerState\": \"" + "x".repeat(100_000) + "\"}", "\uFEFF{}", "{} {}", "null", "[]",
                        "\"On\"", "{\"PowerState\": \"On\", \"PowerState\": \"Off\"}", "{\"a\": NaN}",
                        "{\"x\": \"\\ud800\"}").map(text -> text.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(1, Arbitraries.just(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"',
                        '}'})),
                Tuple.of(1, Arbitraries.just(new byte[0])));
    }

    /** The JSON text of a node. */
    public static byte[] bytes(JsonNode node) {
        try {
            return WRITER.writeValueAsBytes(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
