package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * AES-CBC-128 payload confidentiality. An encrypted payload is a fresh random 16-byte IV followed by the AES-CBC
 * encryption of: the payload, the confidentiality pad 0x01, 0x02, … 0xN, and the pad length N, where N (0 to
 * 15) makes the encrypted part a whole number of 16-byte blocks. Holds a copy of the AES key (the first 16 bytes
 * of K2). Thread-safe if the random generator is.
 */
public final class Confidentiality {

    /** AES block and IV length in bytes. */
    public static final int BLOCK = 16;

    private final byte[] key;
    private final RandomGenerator random;

    /**
     * @param aesKey the 16-byte AES key (copied)
     * @param random source of IVs: a {@link java.security.SecureRandom} in use, a fixed one in tests
     */
    public Confidentiality(byte[] aesKey, RandomGenerator random) {
        Objects.requireNonNull(aesKey, "aesKey");
        if (aesKey.length != BLOCK) {
            throw new IllegalArgumentException("the AES-CBC-128 key must be 16 bytes, was " + aesKey.length);
        }
        this.key = aesKey.clone();
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The number of confidentiality pad bytes for a payload of {@code length} bytes. */
    public static int padLength(int length) {
        return (BLOCK - (length + 1) % BLOCK) % BLOCK;
    }

    /** Returns IV | AES-CBC(payload | pad | pad length). */
    public byte[] encrypt(byte[] payload) {
        int pad = padLength(payload.length);
        byte[] plain = Arrays.copyOf(payload, payload.length + pad + 1);
        for (int i = 1; i <= pad; i++) {
            plain[payload.length + i - 1] = (byte) i;
        }
        plain[plain.length - 1] = (byte) pad;
        byte[] iv = new byte[BLOCK];
        random.nextBytes(iv);
        byte[] cipher = Crypto.aesCbc(true, key, iv, plain, 0, plain.length);
        Arrays.fill(plain, (byte) 0);
        byte[] out = Arrays.copyOf(iv, BLOCK + cipher.length);
        System.arraycopy(cipher, 0, out, BLOCK, cipher.length);
        return out;
    }

    /**
     * Decrypts IV | ciphertext and returns the payload without the trailer.
     *
     * @param datagramOffset offset of {@code encrypted} in the datagram, for error messages
     * @throws MalformedPacketException if the length is not IV plus whole blocks or the pad is wrong
     */
    public byte[] decrypt(byte[] encrypted, int datagramOffset) {
        MalformedPacketException.require(encrypted.length >= 2 * BLOCK && encrypted.length % BLOCK == 0,
                "encrypted payload", datagramOffset, () -> "length " + encrypted.length
                        + " is not a 16-byte IV followed by whole 16-byte blocks");
        byte[] iv = Arrays.copyOf(encrypted, BLOCK);
        byte[] plain = Crypto.aesCbc(false, key, iv, encrypted, BLOCK, encrypted.length - BLOCK);
        try {
            int last = plain.length - 1;
            int pad = plain[last] & 0xFF;
            MalformedPacketException.require(pad < BLOCK, "confidentiality pad length", datagramOffset + BLOCK + last,
                    () -> "pad length " + pad + " exceeds 15: wrong key or corrupt payload");
            for (int i = 1; i <= pad; i++) {
                int at = last - pad + i - 1;
                int expected = i;
                MalformedPacketException.require((plain[at] & 0xFF) == expected, "confidentiality pad",
                        datagramOffset + BLOCK + at, () -> "pad byte " + expected + " is wrong: wrong key or corrupt "
                                + "payload");
            }
            return Arrays.copyOf(plain, last - pad);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "Confidentiality[AES-CBC-128]";
    }
}
