package dev.remedy.spi.config;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * A password, key passphrase or token. Its {@link #toString()} is a mask, it has no bean getters (so JSON
 * mappers see no value), and it is compared in constant time. Only {@link #reveal()} gives the value, to the
 * code that sends it to the device.
 */
public final class Secret {

    /**
     * What stands for a secret value wherever one would be shown: {@link #toString()}, and the text of agents created
     * by {@link dev.remedy.spi.discovery.FenceAgentRegistry#create}, which masks the secrets a device echoes.
     */
    public static final String MASK = "******";

    private final char[] value;

    private Secret(char[] value) {
        this.value = value.clone();
    }

    /** Wraps {@code value}. */
    public static Secret of(String value) {
        return new Secret(Objects.requireNonNull(value, "value").toCharArray());
    }

    /** Wraps a copy of {@code value}; the caller may then clear its array. */
    public static Secret of(char[] value) {
        return new Secret(Objects.requireNonNull(value, "value"));
    }

    /** The value itself. Call only to hand it to the device; never log or format it. */
    public String reveal() {
        return new String(value);
    }

    /** The value as UTF-8 bytes, for protocols that hash or send bytes. The caller should clear the array. */
    public byte[] revealBytes() {
        ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(value));
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        if (bytes.hasArray()) {
            Arrays.fill(bytes.array(), (byte) 0);
        }
        return out;
    }

    /** Whether the secret is the empty string. */
    public boolean blank() {
        return value.length == 0;
    }

    /** Constant-time comparison with another secret. */
    public boolean matches(Secret other) {
        byte[] mine = revealBytes();
        byte[] theirs = other.revealBytes();
        try {
            return MessageDigest.isEqual(mine, theirs);
        } finally {
            Arrays.fill(mine, (byte) 0);
            Arrays.fill(theirs, (byte) 0);
        }
    }

    /** Always the mask {@value #MASK}, whatever the value. */
    @Override
    public String toString() {
        return MASK;
    }
}
