package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * Packet integrity of an authenticated RMCP+ session. The protected range runs from the session header's auth
 * type byte to the end of the payload; after it come the integrity pad (0xFF bytes so that the range through
 * the next header byte is a multiple of 4), the pad length, the next header byte 0x07 and the AuthCode: the HMAC
 * keyed by K1 over everything from the auth type through the next header, truncated to 12 bytes
 * (HMAC-SHA1-96) or 16 bytes (HMAC-SHA256-128). Immutable and thread-safe; holds a copy of K1.
 */
public final class Integrity {

    /** The next header byte that precedes the AuthCode. */
    public static final int NEXT_HEADER = 0x07;
    /** The value of each integrity pad byte. */
    public static final int PAD_BYTE = 0xFF;

    private final CipherSuite.IntegrityAlgorithm algorithm;
    private final byte[] key;

    /**
     * @param key K1 (copied)
     * @throws IllegalArgumentException for {@link CipherSuite.IntegrityAlgorithm#NONE}
     */
    public Integrity(CipherSuite.IntegrityAlgorithm algorithm, byte[] key) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
        if (algorithm == CipherSuite.IntegrityAlgorithm.NONE) {
            throw new IllegalArgumentException("integrity algorithm NONE has no AuthCode: use cipher suite 3 or 17");
        }
        this.key = Objects.requireNonNull(key, "key").clone();
    }

    /** The AuthCode length in bytes. */
    public int authCodeLength() {
        return algorithm.authCodeLength();
    }

    /** The number of pad bytes for a protected range of {@code length} bytes. */
    public static int padLength(int length) {
        return (4 - (length + 2) % 4) % 4;
    }

    /** The trailer length (pad, pad length, next header, AuthCode) for a protected range of {@code length}. */
    public int trailerLength(int length) {
        return padLength(length) + 2 + authCodeLength();
    }

    /** Returns {@code protectedRange} followed by pad, pad length, next header and AuthCode. */
    public byte[] seal(byte[] protectedRange) {
        int pad = padLength(protectedRange.length);
        int covered = protectedRange.length + pad + 2;
        byte[] out = Arrays.copyOf(protectedRange, covered + authCodeLength());
        Arrays.fill(out, protectedRange.length, protectedRange.length + pad, (byte) PAD_BYTE);
        out[covered - 2] = (byte) pad;
        out[covered - 1] = (byte) NEXT_HEADER;
        System.arraycopy(authCode(out, covered), 0, out, covered, authCodeLength());
        return out;
    }

    /**
     * Checks the trailer and AuthCode of {@code sealed} (auth type through AuthCode) and returns the protected
     * range without the trailer. The pad byte values are not checked (the AuthCode covers them).
     *
     * @param datagramOffset offset of {@code sealed} in the datagram, for error messages
     * @throws MalformedPacketException if the trailer is malformed or the AuthCode does not match
     */
    public byte[] open(byte[] sealed, int datagramOffset) {
        int authOffset = sealed.length - authCodeLength();
        MalformedPacketException.require(authOffset >= 2, "integrity trailer", datagramOffset,
                () -> "packet of " + sealed.length + " bytes is too short for a " + authCodeLength()
                        + "-byte AuthCode");
        MalformedPacketException.require((sealed[authOffset - 1] & 0xFF) == NEXT_HEADER, "next header",
                datagramOffset + authOffset - 1,
                () -> String.format("expected 0x07, got 0x%02x", sealed[authOffset - 1]));
        int pad = sealed[authOffset - 2] & 0xFF;
        MalformedPacketException.require(pad <= 3 && authOffset - 2 - pad >= 0 && authOffset % 4 == 0,
                "integrity pad length", datagramOffset + authOffset - 2,
                () -> "pad length " + pad + " does not align the protected range to 4 bytes");
        byte[] expected = authCode(sealed, authOffset);
        byte[] received = Arrays.copyOfRange(sealed, authOffset, sealed.length);
        MalformedPacketException.require(Crypto.equal(expected, received), "AuthCode", datagramOffset + authOffset,
                () -> "integrity check failed: the packet was altered or the session keys differ");
        return Arrays.copyOf(sealed, authOffset - 2 - pad);
    }

    private byte[] authCode(byte[] data, int length) {
        byte[] full = Crypto.hmac(algorithm.jcaName(), key, Arrays.copyOf(data, length));
        return Arrays.copyOf(full, authCodeLength());
    }

    @Override
    public String toString() {
        return "Integrity[" + algorithm + "]";
    }
}
