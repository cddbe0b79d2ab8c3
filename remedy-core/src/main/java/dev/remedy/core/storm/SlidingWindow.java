package dev.remedy.core.storm;

import dev.remedy.core.time.Deadlines;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Objects;

/**
 * The events of one {@link RateLimit} in its sliding window. Holds at most {@code limit.count()} entries: past
 * that, a new event is merged into the newest entry, which can only make the window hold it longer. When time
 * steps back, entries are kept until every older one expired, which is also the conservative side. Not
 * thread-safe; {@link StormGuard} guards it.
 */
final class SlidingWindow {

    private final RateLimit limit;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private int used;

    private record Entry(Instant at, int count) {
    }

    SlidingWindow(RateLimit limit) {
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    RateLimit limit() {
        return limit;
    }

    /** Events in the window that ends at {@code now}. */
    int used(Instant now) {
        evict(now);
        return used;
    }

    /** Events the window can still take at {@code now}. */
    int available(Instant now) {
        return Math.max(0, limit.count() - used(now));
    }

    /** Records {@code count} events at {@code now} if the window can take them all; else records nothing. */
    boolean tryAcquire(int count, Instant now) {
        if (count > available(now)) {
            return false;
        }
        record(count, now);
        return true;
    }

    /** Records {@code count} events at {@code now}, even past the limit (they happened). */
    void record(int count, Instant now) {
        evict(now);
        if (count <= 0) {
            return;
        }
        if (entries.size() >= limit.count()) {
            Entry last = entries.removeLast();
            entries.addLast(new Entry(last.at().isAfter(now) ? last.at() : now, last.count() + count));
        } else {
            entries.addLast(new Entry(now, count));
        }
        used = (int) Math.min(Integer.MAX_VALUE, (long) used + count);
    }

    /** When the window will have room for {@code count} more events, judging by what it holds at {@code now}. */
    Instant nextRoom(int count, Instant now) {
        evict(now);
        long excess = (long) used + count - limit.count();
        Instant at = now;
        Iterator<Entry> it = entries.iterator();
        while (excess > 0 && it.hasNext()) {
            Entry entry = it.next();
            excess -= entry.count();
            Instant expiry = Deadlines.plus(entry.at(), limit.window());
            at = expiry.isAfter(at) ? expiry : at;
        }
        return at;
    }

    /** How many entries the window keeps (at most {@code limit.count()}). */
    int entryCount() {
        return entries.size();
    }

    private void evict(Instant now) {
        while (!entries.isEmpty() && !Deadlines.plus(entries.peekFirst().at(), limit.window()).isAfter(now)) {
            used -= entries.removeFirst().count();
        }
    }
}
