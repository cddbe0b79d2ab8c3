package dev.remedy.fence.ipmi.internal.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.random.RandomGenerator;

/** Test helpers: hex literals (spaces allowed) and a random generator that hands out fixed bytes. */
final class Hex {

    private Hex() {
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static byte[] repeat(int value, int count) {
        byte[] out = new byte[count];
        Arrays.fill(out, (byte) value);
        return out;
    }

    /** A generator whose {@code nextBytes} copies {@code fixed} (cyclically). */
    static RandomGenerator fixed(byte[] fixed) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException("only nextBytes is used");
            }

            @Override
            public void nextBytes(byte[] bytes) {
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = fixed[i % fixed.length];
                }
            }
        };
    }
}
