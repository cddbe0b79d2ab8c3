package dev.remedy.simulators.ipmi;

import dev.remedy.simulators.ipmi.CipherSuite.Hash;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The JDK primitives and scratch buffers of one server thread: an HMAC per hash and an AES-CBC cipher, created
 * once and re-keyed per use. Not thread-safe: each simulator thread (or test) has its own.
 */
final class Crypto {

    /** The largest datagram the simulator reads or writes. */
    static final int MAX_DATAGRAM = 1024;

    /** Scratch for decrypted or to-be-encrypted payloads. */
    final byte[] plain = new byte[MAX_DATAGRAM];
    /** Scratch for padded plaintext. */
    final byte[] padded = new byte[MAX_DATAGRAM];
    /** Scratch for a full MAC. */
    final byte[] mac = new byte[64];
    /** Scratch for an IV. */
    final byte[] iv = new byte[16];

    private final Mac sha1;
    private final Mac sha256;
    private final Cipher aes;

    Crypto() {
        try {
            sha1 = Mac.getInstance("HmacSHA1");
            sha256 = Mac.getInstance("HmacSHA256");
            aes = Cipher.getInstance("AES/CBC/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK lacks HmacSHA1, HmacSHA256 or AES/CBC/NoPadding, which every "
                    + "Java SE runtime must provide", e);
        }
    }

    /** HMAC of {@code input} under {@code key}; empty for {@link Hash#NONE}. */
    byte[] hmac(Hash hash, byte[] key, byte[] input) {
        if (hash == Hash.NONE) {
            return new byte[0];
        }
        Mac mac = hash == Hash.SHA1 ? sha1 : sha256;
        try {
            mac.init(new SecretKeySpec(key, hash.jcaName));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot key " + hash.jcaName, e);
        }
        return mac.doFinal(input);
    }

    /** HMAC truncated to {@code length} bytes. */
    byte[] hmac(Hash hash, byte[] key, byte[] input, int length) {
        return Arrays.copyOf(hmac(hash, key, input), length);
    }

    /** A MAC of its own, keyed once, for a session's packets. */
    static Mac keyedMac(Hash hash, byte[] key) {
        try {
            Mac mac = Mac.getInstance(hash.jcaName);
            mac.init(new SecretKeySpec(key, hash.jcaName));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot key " + hash.jcaName, e);
        }
    }

    /** The shared AES-CBC cipher (no padding); callers init it per packet. */
    Cipher aes() {
        return aes;
    }
}
