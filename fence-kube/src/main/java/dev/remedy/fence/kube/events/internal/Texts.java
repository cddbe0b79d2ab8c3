package dev.remedy.fence.kube.events.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Text limits of Events and their time format. */
public final class Texts {

    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private Texts() {
    }

    /** {@code text} cut to at most {@code max} characters. */
    public static String cap(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

    /**
     * {@code text} cut to at most {@code maxBytes} bytes of UTF-8 (the API server's limit of a note), at a character
     * boundary, ending with an ellipsis when cut.
     */
    public static String capUtf8(String text, int maxBytes) {
        if (text.length() * 3 <= maxBytes || text.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
            return text;
        }
        String ellipsis = "…";
        int budget = maxBytes - ellipsis.getBytes(StandardCharsets.UTF_8).length;
        int bytes = 0;
        int end = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + size > budget) {
                break;
            }
            bytes += size;
            end += Character.charCount(cp);
        }
        return text.substring(0, end) + ellipsis;
    }

    /** {@code at} as a Kubernetes MicroTime ({@code 2026-01-01T00:00:00.000000Z}). */
    public static String micro(Instant at) {
        return MICRO.format(at);
    }
}
