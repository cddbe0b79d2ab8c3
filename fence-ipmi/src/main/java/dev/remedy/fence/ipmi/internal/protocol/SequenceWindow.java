package dev.remedy.fence.ipmi.internal.protocol;

/**
 * The inbound session sequence number check of an authenticated session: a packet is accepted once, and only
 * if its number is not 0, not more than {@value #BEHIND} behind the highest accepted and not more than
 * {@value #AHEAD} ahead of it. This refuses replayed and duplicated packets while tolerating reordering, as
 * IPMI v2.0 §6.12.13 asks. Numbers wrap at 2<sup>32</sup> (0 is skipped). Not thread-safe.
 */
public final class SequenceWindow {

    /** How far behind the highest accepted number a packet may be. */
    public static final int BEHIND = 16;
    /** How far ahead of the highest accepted number a packet may be. */
    public static final int AHEAD = 16;

    private int highest;
    private boolean started;
    private long seen;

    /** Whether {@code sequence} is acceptable; if so it is recorded, so the same number is refused next time. */
    public boolean accept(int sequence) {
        if (sequence == 0) {
            return false;
        }
        if (!started) {
            started = true;
            highest = sequence;
            seen = 1;
            return true;
        }
        int ahead = sequence - highest;
        if (ahead > 0) {
            if (ahead > AHEAD) {
                return false;
            }
            seen = ahead >= Long.SIZE ? 1 : seen << ahead | 1;
            highest = sequence;
            return true;
        }
        int behind = -ahead;
        if (behind > BEHIND) {
            return false;
        }
        long bit = 1L << behind;
        if ((seen & bit) != 0) {
            return false;
        }
        seen |= bit;
        return true;
    }
}
