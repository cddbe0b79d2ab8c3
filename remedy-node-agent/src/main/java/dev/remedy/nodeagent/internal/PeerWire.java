package dev.remedy.nodeagent.internal;

import dev.remedy.core.rules.PeerAnswer;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The peer protocol on the wire: {@code GET /v1/health?node=<asking node>&bootTime=<epoch seconds>}, answered
 * {@code 200} with a JSON object {@code {"node": "<asking node>", "answer": "healthy" | "unhealthy" | "api-error"}}.
 */
public final class PeerWire {

    /** The request path. */
    public static final String PATH = "/v1/health";

    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern NODE = Pattern.compile("\"node\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern ANSWER = Pattern.compile("\"answer\"\\s*:\\s*\"([a-z-]+)\"");

    private PeerWire() {
    }

    /** The query of a request. */
    public static String query(String node, Instant bootTime) {
        return "node=" + URLEncoder.encode(node, StandardCharsets.UTF_8) + "&bootTime=" + bootTime.getEpochSecond();
    }

    /** A parsed request. */
    public record Request(String node, Instant bootTime) {
    }

    /** The request of {@code query}, if it names a valid node and boot time. */
    public static Optional<Request> request(String query) {
        if (query == null || query.length() > 512) {
            return Optional.empty();
        }
        Map<String, String> params = new HashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        String node = params.get("node");
        String boot = params.get("bootTime");
        if (node == null || !NODE_NAME.matcher(node).matches() || boot == null || !boot.matches("[0-9]{1,12}")) {
            return Optional.empty();
        }
        return Optional.of(new Request(node, Instant.ofEpochSecond(Long.parseLong(boot))));
    }

    /** The response body. */
    public static String body(String node, PeerAnswer answer) {
        return "{\"node\":\"" + node + "\",\"answer\":\"" + code(answer) + "\"}";
    }

    /**
     * The answer in a response body about {@code node}; {@link PeerAnswer#NO_ANSWER} for anything else, an answer
     * about another node included (a peer must not answer one node's question with another's verdict).
     */
    public static PeerAnswer answer(String body, String node) {
        String text = body == null ? "" : body;
        var about = NODE.matcher(text);
        var m = ANSWER.matcher(text);
        if (!about.find() || !about.group(1).equals(node) || !m.find()) {
            return PeerAnswer.NO_ANSWER;
        }
        return switch (m.group(1)) {
            case "healthy" -> PeerAnswer.HEALTHY;
            case "unhealthy" -> PeerAnswer.UNHEALTHY;
            case "api-error" -> PeerAnswer.API_ERROR;
            default -> PeerAnswer.NO_ANSWER;
        };
    }

    private static String code(PeerAnswer answer) {
        return switch (answer) {
            case HEALTHY -> "healthy";
            case UNHEALTHY -> "unhealthy";
            case API_ERROR, NO_ANSWER -> "api-error";
        };
    }
}
