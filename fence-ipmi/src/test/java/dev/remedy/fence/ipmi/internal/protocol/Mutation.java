package dev.remedy.fence.ipmi.internal.protocol;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;

/**
 * One change to a datagram, for the decoder properties: overwrite a byte, flip one of its bits, insert a byte or
 * delete one, at a position taken modulo the length.
 */
public record Mutation(Kind kind, int position, byte value) {

    /** What the mutation does. */
    public enum Kind { OVERWRITE, FLIP_BIT, INSERT, DELETE }

    /** One to four mutations, at positions spread evenly over a datagram. */
    public static Arbitrary<List<Mutation>> some() {
        Arbitrary<Mutation> one = Combinators.combine(Arbitraries.of(Kind.values()),
                Arbitraries.integers().between(0, 1000).withDistribution(RandomDistribution.uniform()),
                Arbitraries.bytes()).as(Mutation::new);
        return one.list().ofMinSize(1).ofMaxSize(4);
    }

    /** {@code bytes} with every one of {@code mutations} applied, in order. */
    public static byte[] applyAll(byte[] bytes, List<Mutation> mutations) {
        byte[] out = bytes;
        for (Mutation mutation : mutations) {
            out = mutation.apply(out);
        }
        return out;
    }

    /** A mutated copy of {@code bytes}. */
    public byte[] apply(byte[] bytes) {
        if (bytes.length == 0) {
            return kind == Kind.INSERT ? new byte[] {value} : bytes;
        }
        int at = Math.floorMod(position, bytes.length);
        return switch (kind) {
            case OVERWRITE -> with(bytes, at, value);
            case FLIP_BIT -> with(bytes, at, (byte) (bytes[at] ^ (1 << (value & 7))));
            case INSERT -> {
                byte[] out = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, out, 0, at);
                out[at] = value;
                System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
                yield out;
            }
            case DELETE -> {
                byte[] out = new byte[bytes.length - 1];
                System.arraycopy(bytes, 0, out, 0, at);
                System.arraycopy(bytes, at + 1, out, at, bytes.length - at - 1);
                yield out;
            }
        };
    }

    private static byte[] with(byte[] bytes, int at, byte value) {
        byte[] out = bytes.clone();
        out[at] = value;
        return out;
    }
}
