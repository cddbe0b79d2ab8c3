package dev.remedy.core.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps a node name to the name of its record file, injectively and safely, whatever the name holds.
 *
 * <p>Characters in {@code [a-z0-9.-]} are kept; every other UTF-16 unit becomes {@code _xx} (two lower-case hex
 * digits, up to U+00FF) or {@code _uxxxx}. {@code _} itself is always escaped, so the encoding decodes uniquely
 * and two names never share a file; no separator survives, so no name leaves the directory. Output is lower
 * case (safe on case-insensitive file systems). The empty name is {@code _}; a Windows device name
 * ({@code con}, {@code nul}, {@code com1}, …) gets its first character escaped. An encoding longer than
 * {@value #MAX_PLAIN} characters is cut and followed by {@code ~} and the SHA-256 of the full encoding, which
 * keeps file names (and their temp files) under common 255-byte limits; {@code ~} appears in no plain encoding.
 */
final class RecordFileNames {

    /** The suffix of record files. */
    static final String SUFFIX = ".json";

    /** The suffix of temp files written before the atomic rename. */
    static final String TEMP_SUFFIX = ".tmp";

    static final int MAX_PLAIN = 150;
    private static final int HASHED_PREFIX = 64;
    private static final Pattern NODE_FIELD = Pattern.compile("\"node\"\\s*:\\s*\"([^\"\\\\]*)\"");
    private static final Set<String> WINDOWS_DEVICES = Set.of("con", "prn", "aux", "nul",
            "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
            "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9");

    private RecordFileNames() {
    }

    /** The record file name of {@code node} (ends with {@link #SUFFIX}). */
    static String of(String node) {
        if (node.isEmpty()) {
            return "_" + SUFFIX;
        }
        StringBuilder out = new StringBuilder(node.length() + 8);
        int dot = node.indexOf('.');
        boolean device = WINDOWS_DEVICES.contains(dot < 0 ? node : node.substring(0, dot));
        for (int i = 0; i < node.length(); i++) {
            char c = node.charAt(i);
            if (isPlain(c) && !(device && i == 0)) {
                out.append(c);
            } else if (c <= 0xff) {
                out.append('_').append(HexFormat.of().toHexDigits((byte) c));
            } else {
                out.append("_u").append(HexFormat.of().toHexDigits(c));
            }
        }
        String encoded = out.toString();
        if (encoded.length() > MAX_PLAIN) {
            encoded = encoded.substring(0, HASHED_PREFIX) + "~" + sha256(encoded);
        }
        return encoded + SUFFIX;
    }

    /** The suffix of the previous version of a record, kept so that a torn latest write falls back to it. */
    static final String PREVIOUS_SUFFIX = ".prev";

    /** The file name of the previous version of the record file {@code fileName}. */
    static String previous(String fileName) {
        return fileName + PREVIOUS_SUFFIX;
    }

    /**
     * The node whose record file is {@code fileName}: decoded from the name, or for a hashed name taken from a
     * {@code "node"} field in {@code content} (even a damaged one) and checked against the name; empty if neither
     * gives a node that maps to this file.
     */
    static Optional<String> nodeOf(String fileName, byte[] content) {
        String encoded = fileName.endsWith(SUFFIX) ? fileName.substring(0, fileName.length() - SUFFIX.length()) : "";
        Optional<String> candidate = encoded.contains("~") ? nodeField(content) : decode(encoded);
        return candidate.filter(node -> of(node).equals(fileName));
    }

    private static Optional<String> decode(String encoded) {
        if (encoded.equals("_")) {
            return Optional.of("");
        }
        StringBuilder node = new StringBuilder(encoded.length());
        try {
            for (int i = 0; i < encoded.length(); i++) {
                char c = encoded.charAt(i);
                if (c != '_') {
                    node.append(c);
                } else if (encoded.charAt(i + 1) == 'u') {
                    node.append((char) Integer.parseInt(encoded.substring(i + 2, i + 6), 16));
                    i += 5;
                } else {
                    node.append((char) Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
                    i += 2;
                }
            }
        } catch (IndexOutOfBoundsException | NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.of(node.toString());
    }

    private static Optional<String> nodeField(byte[] content) {
        Matcher m = NODE_FIELD.matcher(new String(content, StandardCharsets.UTF_8));
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Whether {@code fileName} is a temp file left by a save (possibly interrupted by a crash). */
    static boolean isTemp(String fileName) {
        return fileName.startsWith(".") && fileName.endsWith(TEMP_SUFFIX) && fileName.contains(SUFFIX + ".");
    }

    /** The record file name a temp file was written for. */
    static String recordOfTemp(String tempName) {
        return tempName.substring(1, tempName.lastIndexOf(SUFFIX + ".") + SUFFIX.length());
    }

    /** The prefix of temp files for the record file {@code fileName}. */
    static String tempPrefix(String fileName) {
        return "." + fileName + ".";
    }

    private static boolean isPlain(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }
}
