package dev.remedy.fence.redfish.internal.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.spi.config.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a Redfish error response ({@code {"error": {"code", "message", "@Message.ExtendedInfo": [...]}}}) into
 * one line for an outcome's detail. Bodies that are not such JSON give a short excerpt instead. The password is
 * masked in the body before anything is cut: a BMC may echo the login body, and a password cut in two is no longer
 * found whole by {@link dev.remedy.spi.discovery.FenceAgentRegistry#create}, which masks it everywhere else. Whatever
 * the body,
 * the line is at most {@link Text#BODY} characters, without control characters: each message is cut at
 * {@link Text#DETAIL} characters and at most {@link #MESSAGES} are taken.
 */
final class ErrorBody {

    /** The most messages taken from one error body. */
    static final int MESSAGES = 5;
    private static final int EXCERPT = 120;

    private ErrorBody() {
    }

    /**
     * The error's message and the messages of its extended info, or an excerpt of the raw body; {@code password}
     * masked.
     */
    static String describe(byte[] body, Secret password) {
        if (body == null || body.length == 0) {
            return "no error details";
        }
        if (!password.blank()) {
            String text = new String(body, StandardCharsets.UTF_8);
            if (text.contains(password.reveal())) {
                body = text.replace(password.reveal(), Secret.MASK).getBytes(StandardCharsets.UTF_8);
            }
        }
        JsonNode error;
        try {
            error = RedfishJson.MAPPER.readTree(body).path("error");
        } catch (IOException e) {
            return excerpt(body);
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
        // blank after the excerpt drops control and space characters (a message of only NUL or NBSP is no message)
        return Optional.of(Text.excerpt(value.textValue(), Text.DETAIL)).filter(text -> !text.isEmpty());
    }

    /** {@code body: } and the start of the body as text, on one line. */
    static String excerpt(byte[] body) {
        // enough bytes for the excerpt even if every character took 4 of them, and no more
        String text = new String(body, 0, Math.min(body.length, 4 * (EXCERPT + 1) + 64), StandardCharsets.UTF_8);
        return "body: " + Text.excerpt(text, EXCERPT);
    }
}
