package dev.remedy.core.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

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
