package dev.remedy.fence.ipmi.internal.protocol;

import dev.remedy.spi.config.Secret;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * RAKP key exchange codes and the session keys of IPMI v2.0 §13.31–13.32. H is the HMAC of the suite's
 * authentication algorithm (SHA-1 or SHA-256); "|" is concatenation; session ids are 4 bytes little-endian;
 * Kuid is the user password zero-padded to 20 bytes; KG is the BMC key when one is set, else Kuid.
 * <ul>
 *   <li>RAKP 2 code (BMC proves it knows the password) = H<sub>Kuid</sub>(SIDm | SIDc | Rm | Rc | GUIDc |
 *       RoleM | ULengthM | UNameM).</li>
 *   <li>RAKP 3 code (console proves it knows the password) = H<sub>Kuid</sub>(Rc | SIDm | RoleM | ULengthM |
 *       UNameM).</li>
 *   <li>SIK = H<sub>KG</sub>(Rm | Rc | RoleM | ULengthM | UNameM).</li>
 *   <li>K1 = H<sub>SIK</sub>(0x01 repeated), K2 = H<sub>SIK</sub>(0x02 repeated), the constant 20 bytes long
 *       for every suite (see {@link #KEY_CONSTANT_LENGTH}). K1 keys the packet integrity HMAC; the first 16 bytes
 *       of K2 are the AES-128 key.</li>
 *   <li>RAKP 4 check value (BMC proves it derived the SIK) = H<sub>SIK</sub>(Rm | SIDc | GUIDc), truncated to 12
 *       bytes (SHA-1) or 16 bytes (SHA-256).</li>
 * </ul>
 * Instances hold key material: {@link #destroy()} them when the session closes. Not thread-safe to destroy
 * while in use; otherwise immutable. {@link #toString()} shows no key.
 */
public final class SessionKeys {

    /** Longest IPMI v2.0 password (and BMC key) in bytes. */
    public static final int MAX_KEY_LENGTH = 20;
    /**
     * Length of the K1 and K2 constants (0x01 or 0x02 repeated): 20 bytes for every suite, SHA-256 included, as
     * ipmitool, FreeIPMI and BMCs compute them (the v2.0 text sizes them for SHA-1 and the SHA-256 errata kept it).
     */
    public static final int KEY_CONSTANT_LENGTH = 20;
    /** Length of the AES-CBC-128 key taken from K2. */
    public static final int AES_KEY_LENGTH = 16;

    private final CipherSuite suite;
    private final byte[] sik;
    private final byte[] k1;
    private final byte[] k2;
    private volatile boolean destroyed;

    private SessionKeys(CipherSuite suite, byte[] sik, byte[] k1, byte[] k2) {
        this.suite = suite;
        this.sik = sik;
        this.k1 = k1;
        this.k2 = k2;
    }

    /**
     * Derives SIK, K1 and K2 for a finished RAKP exchange.
     *
     * @param bmcKey the BMC key (KG) if the BMC has one, else {@code null} or blank to use the password
     * @throws IllegalArgumentException if the suite has no authentication or a key is longer than 20 bytes
     */
    public static SessionKeys derive(CipherSuite suite, Secret password, Secret bmcKey, RakpExchange exchange) {
        if (bmcKey == null || bmcKey.blank()) {
            return derive(suite, password, (byte[]) null, exchange);
        }
        byte[] kg = bmcKey.revealBytes();
        try {
            return derive(suite, password, kg, exchange);
        } finally {
            Arrays.fill(kg, (byte) 0);
        }
    }

    /**
     * Derives SIK, K1 and K2 with a BMC key given as raw bytes (as {@code hexadecimal_kg} decodes to).
     *
     * @param bmcKey KG, at most 20 bytes, or {@code null} or empty to use the password
     * @throws IllegalArgumentException if the suite has no authentication or a key is longer than 20 bytes
     */
    public static SessionKeys derive(CipherSuite suite, Secret password, byte[] bmcKey, RakpExchange exchange) {
        String hmac = hmacOf(suite);
        Objects.requireNonNull(exchange, "exchange");
        byte[] kg = bmcKey == null || bmcKey.length == 0 ? paddedKey(password, "password") : padded(bmcKey);
        try {
            byte[] sik = Crypto.hmac(hmac, kg, exchange.rm(), exchange.rc(), exchange.roleAndUser());
            byte[] one = new byte[KEY_CONSTANT_LENGTH];
            Arrays.fill(one, (byte) 0x01);
            byte[] two = new byte[KEY_CONSTANT_LENGTH];
            Arrays.fill(two, (byte) 0x02);
            return new SessionKeys(suite, sik, Crypto.hmac(hmac, sik, one), Crypto.hmac(hmac, sik, two));
        } finally {
            Arrays.fill(kg, (byte) 0);
        }
    }

    /** The key exchange authentication code the BMC sends in RAKP 2 (full HMAC length). */
    public static byte[] rakp2AuthCode(CipherSuite suite, Secret password, RakpExchange exchange) {
        String hmac = hmacOf(suite);
        byte[] kuid = paddedKey(password, "password");
        try {
            return Crypto.hmac(hmac, kuid, RakpExchange.le32(exchange.consoleSessionId()),
                    RakpExchange.le32(exchange.bmcSessionId()), exchange.rm(), exchange.rc(), exchange.guid(),
                    exchange.roleAndUser());
        } finally {
            Arrays.fill(kuid, (byte) 0);
        }
    }

    /** Whether {@code received} is the right RAKP 2 code (constant time). */
    public static boolean verifyRakp2AuthCode(CipherSuite suite, Secret password, RakpExchange exchange,
            byte[] received) {
        return Crypto.equal(rakp2AuthCode(suite, password, exchange), received);
    }

    /** The key exchange authentication code the console sends in RAKP 3 (full HMAC length). */
    public static byte[] rakp3AuthCode(CipherSuite suite, Secret password, RakpExchange exchange) {
        String hmac = hmacOf(suite);
        byte[] kuid = paddedKey(password, "password");
        try {
            return Crypto.hmac(hmac, kuid, exchange.rc(), RakpExchange.le32(exchange.consoleSessionId()),
                    exchange.roleAndUser());
        } finally {
            Arrays.fill(kuid, (byte) 0);
        }
    }

    /** The integrity check value the BMC sends in RAKP 4, truncated to the suite's length. */
    public byte[] rakp4IntegrityCheckValue(RakpExchange exchange) {
        byte[] full = Crypto.hmac(suite.authentication().jcaName(), live(sik), exchange.rm(),
                RakpExchange.le32(exchange.bmcSessionId()), exchange.guid());
        return Arrays.copyOf(full, suite.authentication().icvLength());
    }

    /** Whether {@code received} is the right RAKP 4 check value (constant time). */
    public boolean verifyRakp4IntegrityCheckValue(RakpExchange exchange, byte[] received) {
        return Crypto.equal(rakp4IntegrityCheckValue(exchange), received);
    }

    /** The cipher suite these keys belong to. */
    public CipherSuite suite() {
        return suite;
    }

    /** The session integrity key (a copy; clear it after use). */
    public byte[] sik() {
        return live(sik).clone();
    }

    /** K1, the integrity key (a copy; clear it after use). */
    public byte[] k1() {
        return live(k1).clone();
    }

    /** K2 (a copy; clear it after use). */
    public byte[] k2() {
        return live(k2).clone();
    }

    /** The AES-CBC-128 key: the first 16 bytes of K2 (a copy; clear it after use). */
    public byte[] aesKey() {
        return Arrays.copyOf(live(k2), AES_KEY_LENGTH);
    }

    /** Packet integrity keyed by K1. */
    public Integrity integrity() {
        byte[] key = k1();
        try {
            return new Integrity(suite.integrity(), key);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** Payload confidentiality keyed by the AES key, drawing IVs from {@code random} (a SecureRandom in use). */
    public Confidentiality confidentiality(RandomGenerator random) {
        byte[] key = aesKey();
        try {
            return new Confidentiality(key, random);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** Clears the keys; later use throws {@link IllegalStateException}. */
    public void destroy() {
        Arrays.fill(sik, (byte) 0);
        Arrays.fill(k1, (byte) 0);
        Arrays.fill(k2, (byte) 0);
        destroyed = true;
    }

    private byte[] live(byte[] key) {
        if (destroyed) {
            throw new IllegalStateException("session keys were destroyed: open a new session");
        }
        return key;
    }

    private static String hmacOf(CipherSuite suite) {
        Objects.requireNonNull(suite, "suite");
        if (suite.insecure()) {
            throw new IllegalArgumentException("cipher suite " + suite.id()
                    + " has no RAKP authentication and no keys: use cipher suite 3 or 17");
        }
        return suite.authentication().jcaName();
    }

    private static byte[] padded(byte[] key) {
        if (key.length > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("the BMC key is longer than " + MAX_KEY_LENGTH
                    + " bytes, the IPMI v2.0 limit: give at most 40 hexadecimal digits");
        }
        return Arrays.copyOf(key, MAX_KEY_LENGTH);
    }

    /** The secret's bytes zero-padded to 20; the caller clears the result. */
    static byte[] paddedKey(Secret secret, String what) {
        Objects.requireNonNull(secret, what);
        byte[] raw = secret.revealBytes();
        try {
            if (raw.length > MAX_KEY_LENGTH) {
                throw new IllegalArgumentException("the " + what + " is longer than " + MAX_KEY_LENGTH
                        + " bytes, the IPMI v2.0 limit: shorten it on the BMC and in the configuration");
            }
            return Arrays.copyOf(raw, MAX_KEY_LENGTH);
        } finally {
            Arrays.fill(raw, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "SessionKeys[suite=" + suite.id() + (destroyed ? ", destroyed]" : ", ******]");
    }
}
