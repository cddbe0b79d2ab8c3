package dev.remedy.simulators.ipmi;

/**
 * Inbound session sequence numbers (IPMI v2.0 section 6.12.13): zero is never valid, a number at or below the
 * highest seen is accepted once if it is within the last 32, anything above the highest is accepted. Not
 * thread-safe.
 */
final class ReplayWindow {

    /** How a sequence number was judged. */
    enum Verdict {
        /** Never seen and in range: process it. */
        NEW,
        /** Seen before: a duplicate or a replay. */
        DUPLICATE,
        /** Zero, or too far behind the highest seen. */
        OUT_OF_RANGE
    }

    static final int WIDTH = 32;

    private long highest;
    /** Bit i set: highest - i was seen. */
    private long seen;

    /** Judges {@code sequence} (unsigned 32 bits) and, if new, remembers it. */
    Verdict accept(int sequence) {
        long number = Integer.toUnsignedLong(sequence);
        if (number == 0) {
            return Verdict.OUT_OF_RANGE;
        }
        if (number > highest) {
            long shift = number - highest;
            seen = shift >= WIDTH ? 1 : (seen << shift | 1) & mask();
            highest = number;
            return Verdict.NEW;
        }
        long behind = highest - number;
        if (behind >= WIDTH) {
            return Verdict.OUT_OF_RANGE;
        }
        long bit = 1L << behind;
        if ((seen & bit) != 0) {
            return Verdict.DUPLICATE;
        }
        seen |= bit;
        return Verdict.NEW;
    }

    private static long mask() {
        return (1L << WIDTH) - 1;
    }
}
