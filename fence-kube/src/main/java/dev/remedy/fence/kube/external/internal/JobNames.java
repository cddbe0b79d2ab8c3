package dev.remedy.fence.kube.external.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The name of a remedy's Job for a node: {@code remedy-<remedy>-<node>} made a DNS label (lower case, letters, digits
 * and {@code -}), cut to fit, and ended by a hash of the node and remedy names, so distinct pairs never share a name
 * and the name stays within the 63 characters a Job's name may have (its pods carry it in a label).
 */
public final class JobNames {

    /** The longest Job name. */
    public static final int MAX = 63;
    private static final int HASH_CHARS = 10;

    private JobNames() {
    }

    /** The Job name of {@code remedy} for {@code node}; the same for the same pair, in every process. */
    public static String of(String node, String remedy) {
        String readable = ("remedy-" + remedy + "-" + node).toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]+", "-").replaceAll("-{2,}", "-");
        int keep = MAX - HASH_CHARS - 1;
        if (readable.length() > keep) {
            readable = readable.substring(0, keep);
        }
        return readable.replaceAll("-+$", "") + "-" + hash(node + "\n" + remedy);
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
