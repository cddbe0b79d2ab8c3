package dev.remedy.fence.ipmi.internal.protocol;

import java.util.function.Supplier;

/**
 * A packet that is too short, has a wrong constant, a bad checksum, a bad pad or a failed integrity check. The
 * message names the field and its byte offset; it never contains key material.
 */
public final class MalformedPacketException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final int offset;

    /** A problem with {@code field} at byte {@code offset}. */
    public MalformedPacketException(String field, int offset, String problem) {
        super(field + " at offset " + offset + ": " + problem);
        this.field = field;
        this.offset = offset;
    }

    /** The name of the field that is wrong, e.g. {@code "payload length"}. */
    public String field() {
        return field;
    }

    /**
     * The byte offset of the field in the buffer being read: the datagram, or the decrypted payload for the
     * fields of an {@link IpmiMessage}.
     */
    public int offset() {
        return offset;
    }

    /** Throws if {@code condition} does not hold; the problem is described only then (decoders run per datagram). */
    static void require(boolean condition, String field, int offset, Supplier<String> problem) {
        if (!condition) {
            throw new MalformedPacketException(field, offset, problem.get());
        }
    }
}
