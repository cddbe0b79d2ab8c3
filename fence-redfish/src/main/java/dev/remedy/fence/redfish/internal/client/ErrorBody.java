package dev.remedy.fence.redfish.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
<<<<<<< HEAD
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remedy.spi.config.Secret;
=======
>>>>>>> i13-parsers
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a Redfish error response ({@code {"error": {"code", "message", "@Message.ExtendedInfo": [...]}}}) into
<<<<<<< HEAD
 * one line for an outcome's detail. Bodies that are not such JSON give a short excerpt instead, with the password
 * masked before the cut: a BMC may echo the login body, and a password cut in two is no longer found whole by
 * {@link dev.remedy.spi.discovery.FenceAgentRegistry#create}, which masks it everywhere else.
=======
 * one line for an outcome's detail. Bodies that are not such JSON give a short excerpt instead. Whatever the body,
 * the line is at most {@link Text#BODY} characters, without control characters: each message is cut at
 * {@link Text#DETAIL} characters and at most {@link #MESSAGES} are taken.
>>>>>>> i13-parsers
 */
final class ErrorBody {

    /** The most messages taken from one error body. */
    static final int MESSAGES = 5;
    private static final int EXCERPT = 120;

    private ErrorBody() {
    }

    /** The error's message and the messages of its extended info, or an excerpt of the raw body. */
<<<<<<< HEAD
    static String describe(ObjectMapper json, byte[] body, Secret password) {
=======
    static String describe(byte[] body) {
>>>>>>> i13-parsers
        if (body == null || body.length == 0) {
            return "no error details";
        }
        JsonNode error;
        try {
<<<<<<< HEAD
            JsonNode error = json.readTree(body).path("error");
            List<String> parts = new ArrayList<>();
            text(error, "message").ifPresent(parts::add);
            for (JsonNode info : error.path("@Message.ExtendedInfo")) {
                String message = text(info, "Message").orElse(text(info, "MessageId").orElse(""));
                String resolution = text(info, "Resolution").map(r -> " (" + r + ")").orElse("");
                if (!message.isEmpty() && !parts.contains(message)) {
                    parts.add(message + resolution);
                }
            }
            if (parts.isEmpty()) {
                text(error, "code").ifPresent(parts::add);
            }
            return parts.isEmpty() ? excerpt(body, password) : String.join("; ", parts);
=======
            error = RedfishJson.MAPPER.readTree(body).path("error");
>>>>>>> i13-parsers
        } catch (IOException e) {
            return excerpt(body, password);
        }
        List<String> parts = new ArrayList<>();
        text(error, "message").ifPresent(parts::add);
        for (JsonNode info : error.path("@Message.ExtendedInfo")) {
            String message = text(info, "Message").orElse(text(info, "MessageId").orElse(""));
            String resolution = text(info, "Resolution").map(r -> " (" + r + ")").orElse("");
            if (parts.size() < MESSAGES && !message.isEmpty() && !parts.contains(message)) {
                parts.add(message + resolution);
            }
        }
        if (parts.isEmpty()) {
            text(error, "code").ifPresent(parts::add);
        }
        return parts.isEmpty() ? excerpt(body) : Text.excerpt(String.join("; ", parts), Text.BODY);
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(Text.excerpt(value.asText(), Text.DETAIL)) : Optional.empty();
    }

<<<<<<< HEAD
    private static String excerpt(byte[] body, Secret password) {
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        if (!password.blank()) {
            text = text.replace(password.reveal(), Secret.MASK);
        }
        text = text.replaceAll("\\s+", " ").strip();
        return "body: " + (text.length() > EXCERPT ? text.substring(0, EXCERPT) + "…" : text);
=======
    /** {@code body: } and the start of the body as text, on one line. */
    static String excerpt(byte[] body) {
        // enough bytes for the excerpt even if every character took 4 of them, and no more
        String text = new String(body, 0, Math.min(body.length, 4 * (EXCERPT + 1) + 64), StandardCharsets.UTF_8);
        return "body: " + Text.excerpt(text, EXCERPT);
>>>>>>> i13-parsers
    }
}
