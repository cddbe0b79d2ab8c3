package dev.remedy.fence.redfish.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Redfish error response ({@code {"error": {"code", "message", "@Message.ExtendedInfo": [...]}}}) into
 * one line for an outcome's detail. Bodies that are not such JSON give a short excerpt instead, with the password
 * masked before the cut: a BMC may echo the login body, and a password cut in two is no longer found whole by
 * {@link dev.remedy.spi.discovery.FenceAgentRegistry#create}, which masks it everywhere else.
 */
final class ErrorBody {

    private static final int EXCERPT = 120;

    private ErrorBody() {
    }

    /** The error's message and the messages of its extended info, or an excerpt of the raw body. */
    static String describe(ObjectMapper json, byte[] body, Secret password) {
        if (body == null || body.length == 0) {
            return "no error details";
        }
        try {
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
        } catch (IOException e) {
            return excerpt(body, password);
        }
    }

    private static java.util.Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? java.util.Optional.of(value.asText().strip())
                : java.util.Optional.empty();
    }

    private static String excerpt(byte[] body, Secret password) {
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        if (!password.blank()) {
            text = text.replace(password.reveal(), Secret.MASK);
        }
        text = text.replaceAll("\\s+", " ").strip();
        return "body: " + (text.length() > EXCERPT ? text.substring(0, EXCERPT) + "…" : text);
    }
}
