package dev.remedy.fence.ipmi.internal.protocol;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The JCA primitives the protocol uses: HMAC over concatenated parts and raw AES-CBC without padding. The
 * {@link Mac} and {@link Cipher} instances are kept per thread (an I/O thread seals and opens thousands of packets a
 * second; looking the algorithms up again each time costs more than the work), and re-keyed on every call.
 */
final class Crypto {

    private static final ThreadLocal<Map<String, Mac>> MACS = ThreadLocal.withInitial(HashMap::new);
    private static final ThreadLocal<Cipher> AES = new ThreadLocal<>();

    private Crypto() {
    }

    /** HMAC with the JCA algorithm {@code algorithm} (e.g. {@code HmacSHA1}) keyed by {@code key}, over all parts. */
    static byte[] hmac(String algorithm, byte[] key, byte[]... parts) {
        try {
            Mac mac = MACS.get().get(algorithm);
            if (mac == null) {
                mac = Mac.getInstance(algorithm);
                MACS.get().put(algorithm, mac);
            }
            mac.init(new SecretKeySpec(key, algorithm));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is not usable in this JVM: " + e.getClass().getName(), e);
        }
    }

    /** AES-128-CBC without padding; {@code data} must be a whole number of 16-byte blocks. */
    static byte[] aesCbc(boolean encrypt, byte[] key, byte[] iv, byte[] data, int offset, int length) {
        try {
            Cipher cipher = AES.get();
            if (cipher == null) {
                cipher = Cipher.getInstance("AES/CBC/NoPadding");
                AES.set(cipher);
            }
            cipher.init(encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"),
                    new IvParameterSpec(iv));
            return cipher.doFinal(data, offset, length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CBC/NoPadding failed: " + e.getClass().getName(), e);
        }
    }

    /** Constant-time comparison. */
    static boolean equal(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }
}
