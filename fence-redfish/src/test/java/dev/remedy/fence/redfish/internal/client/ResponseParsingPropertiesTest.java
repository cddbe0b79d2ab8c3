package dev.remedy.fence.redfish.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remedy.spi.config.Secret;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The readers of what a Redfish service sends, fed anything: bodies of any bytes and JSON of any shape and depth,
 * links, session tokens and {@code Retry-After} values of any text. Each returns a value of the promised kind or
 * throws a {@link RedfishException} of kind SERVICE with a bounded, single-line message; nothing else escapes, and
 * no depth of nesting exhausts the stack.
 */
class ResponseParsingPropertiesTest {

    private static final String WHERE = "/redfish/v1/Systems/1 on http://192.0.2.7:8000";
    private static final URI BASE = URI.create("http://192.0.2.7:8000");
    /** The longest message a malformed response may give: the sentence and excerpts of what was sent. */
    private static final int MAX_MESSAGE = 1_500;

    /** A connection that sends nothing: only its reading of links is used. */
    private static final RedfishConnection CONNECTION = new RedfishConnection(HttpClient.newBuilder().build(), BASE,
            "admin", Secret.of("secret"), AuthMode.SESSION, Duration.ofSeconds(1), 1 << 20, 0, Runnable::run);

    @Property(tries = 1000)
    @Label("a body of any bytes or JSON is a resource, nothing, or a malformed response")
    void bodies(@ForAll("bodies") byte[] body) {
        JsonNode resource = readOrMalformed(() -> RedfishJson.parse(body, "GET " + WHERE, 200));
        Statistics.label("parsed").collect(resource == null ? "malformed" : resource.isMissingNode() ? "empty"
                : "resource");
        if (resource != null) {
            assertThat(resource.isObject() || resource.isMissingNode()).as("a resource is an object").isTrue();
        }
    }

    @Property(tries = 200)
    @Label("nesting of any depth is refused past the limit, without exhausting the stack")
    void deepNesting(@ForAll @IntRange(min = 1, max = 200_000) int depth, @ForAll("openers") String opener) {
        byte[] body = (opener.repeat(depth) + "1").getBytes(StandardCharsets.US_ASCII);
        JsonNode resource = readOrMalformed(() -> RedfishJson.parse(body, "GET " + WHERE, 200));
        assertThat(resource).as("an unclosed document is never a resource").isNull();
        String closed = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
        JsonNode nested = readOrMalformed(() -> RedfishJson.parse(closed.getBytes(StandardCharsets.US_ASCII),
                "GET " + WHERE, 200));
        assertThat(nested != null).as("read at depth %d", depth).isEqualTo(depth <= RedfishJson.MAX_NESTING_DEPTH);
    }

    @Property(tries = 1000)
    @Label("the readers of a resource of any shape give values of the schema's type or a malformed response")
    void readers(@ForAll("resources") JsonNode resource) {
        readOrMalformed(() -> RedfishJson.text(resource, WHERE, "PowerState"));
        readOrMalformed(() -> RedfishJson.text(resource, WHERE, "Actions", "#ComputerSystem.Reset", "target"));
        readOrMalformed(() -> RedfishJson.strings(resource, WHERE, "Actions", "#ComputerSystem.Reset",
                "ResetType@Redfish.AllowableValues"));
        readOrMalformed(() -> RedfishJson.link(resource, WHERE, "Links", "Sessions"));
        readOrMalformed(() -> RedfishJson.link(resource, WHERE, "Systems"));
        List<String> members = readOrMalformed(() -> RedfishJson.members(resource, WHERE));
        if (members != null) {
            assertThat(members).allSatisfy(member -> assertThat(member).isNotBlank());
        }
    }

    @Property(tries = 1000)
    @Label("an error body of any bytes or JSON is described in one bounded line")
    void errorBodies(@ForAll("errorBodies") byte[] body) {
        String described = ErrorBody.describe(body, dev.remedy.spi.config.Secret.of("property-password"));
        assertThat(described).isNotBlank().hasSizeLessThanOrEqualTo(Text.BODY + 1)
                .doesNotContainPattern("\\p{Cntrl}");
    }

    @Property(tries = 1000)
    @Label("a link of any text names a path on the configured service, or is a malformed response")
    void links(@ForAll("linkTexts") String link) {
        URI uri = readOrMalformed(() -> CONNECTION.resolve(link));
        Statistics.label("link").collect(uri == null ? "malformed" : "resolved");
        if (uri != null) {
            assertThat(uri.getScheme()).isEqualTo(BASE.getScheme());
            assertThat(uri.getRawAuthority()).isEqualTo(BASE.getRawAuthority());
            assertThat(uri.getRawPath()).startsWith("/");
            assertThat(uri.toString()).as("sendable as is").isEqualTo(uri.toASCIIString());
            assertThat(catchThrowable(() -> HttpRequest.newBuilder(uri))).isNull();
        }
    }

    @Property(tries = 500)
    @Label("a Retry-After of any text is a wait of 0 to 10 minutes, or none")
    void retryAfter(@ForAll("retryAfters") String value) {
        Optional<Duration> wait = RedfishConnection.retryAfter(value);
        wait.ifPresent(duration -> assertThat(duration).isBetween(Duration.ZERO, Duration.ofMinutes(10)));
    }

    @Property(tries = 1000)
    @Label("an excerpt of any text is one line of at most its limit and an ellipsis, in well-formed UTF-16")
    void excerpts(@ForAll("texts") String text, @ForAll @IntRange(min = 1, max = 300) int max) {
        String excerpt = Text.excerpt(text, max);
        assertThat(excerpt).hasSizeLessThanOrEqualTo(max + 1).doesNotContainPattern("\\p{Cntrl}");
        assertThat(Text.wellFormed(excerpt)).isTrue();
        if (excerpt.length() > max) {
            assertThat(excerpt).endsWith("…");
        }
    }

    // ---- checks

    /** The value read, or {@code null} if it was refused as a malformed response with a good message. */
    private static <T> T readOrMalformed(Supplier<T> reader) {
        Object[] value = new Object[1];
        Throwable thrown = catchThrowable(() -> value[0] = reader.get());
        if (thrown == null) {
            @SuppressWarnings("unchecked")
            T read = (T) value[0];
            return read;
        }
        assertThat(thrown).as("what a reader may throw").isExactlyInstanceOf(RedfishException.class);
        RedfishException malformed = (RedfishException) thrown;
        assertThat(malformed.kind()).isEqualTo(RedfishException.Kind.SERVICE);
        assertThat(malformed.getMessage()).startsWith("malformed Redfish response: ")
                .hasSizeLessThanOrEqualTo(MAX_MESSAGE).doesNotContainPattern("\\p{Cntrl}");
        return null;
    }

    // ---- generators

    @Provide
    Arbitrary<byte[]> bodies() {
        return JsonArbitraries.bodies(JsonArbitraries.values(4));
    }

    @Provide
    Arbitrary<byte[]> errorBodies() {
        return JsonArbitraries.bodies(JsonArbitraries.values(4).map(value -> {
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.set("error", value);
            return body;
        }));
    }

    @Provide
    Arbitrary<JsonNode> resources() {
        return JsonArbitraries.values(5);
    }

    @Provide
    Arbitrary<String> openers() {
        return Arbitraries.of("[", "{\"a\":", "[{\"b\":");
    }

    @Provide
    Arbitrary<String> linkTexts() {
        return Arbitraries.oneOf(JsonArbitraries.links(), JsonArbitraries.strings());
    }

    @Provide
    Arbitrary<String> retryAfters() {
        Arbitrary<String> numbers = Arbitraries.longs().map(number -> Long.toString(number));
        return Arbitraries.frequencyOf(Tuple.of(2, numbers),
                Tuple.of(1, Arbitraries.strings().numeric().ofMaxLength(40)),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(20)),
                Tuple.of(1, Arbitraries.of("Wed, 21 Oct 2015 07:28:00 GMT", " 5 ", "+5", "5.0", "0x10", "")));
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(JsonArbitraries.strings(), Arbitraries.strings().all().ofMaxLength(400));
    }
}
