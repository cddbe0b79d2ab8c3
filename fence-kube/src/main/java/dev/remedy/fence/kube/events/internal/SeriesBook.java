package dev.remedy.fence.kube.events.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The aggregation of Events into series, without I/O: which report creates an Event, which one only counts in the
 * series of an earlier one, which one is dropped (too many distinct Events about one object within the window), and
 * which series have counts not yet written. Time is passed in. Not thread-safe (the recorder's one thread).
 */
public final class SeriesBook {

    /** What to do with a report. */
    public enum Verdict {
        /** Create a new Event. */
        CREATE,
        /** The first repeat: write the series now ({@code count} 2). */
        WRITE_SERIES,
        /** A later repeat: counted; written by the next flush. */
        COUNTED,
        /** Dropped: too many distinct Events about this object within the window. */
        DROPPED
    }

    /**
     * An Event and its series.
     */
    public static final class Series {
        private final String namespace;
        private String name;
        private int count = 1;
        private int written = 1;
        private Instant lastObserved;
        private Instant lastWritten;

        Series(String namespace, Instant at) {
            this.namespace = namespace;
            this.lastObserved = at;
            this.lastWritten = at;
        }

        /** The Event's namespace. */
        public String namespace() {
            return namespace;
        }

        /** The Event's name, or null before it was created. */
        public String name() {
            return name;
        }

        /** Names the Event once created. */
        public void named(String value) {
            name = value;
        }

        /** Occurrences so far. */
        public int count() {
            return count;
        }

        /** When it was last observed. */
        public Instant lastObserved() {
            return lastObserved;
        }

        /** Notes that {@code count} as of {@code at} was written to the server. */
        public void written(int value, Instant at) {
            written = value;
            lastWritten = at;
        }
    }

    private final Duration window;
    private final Duration flushEvery;
    private final int perObject;
    private final int maxSeries;
    private final LinkedHashMap<Object, Series> series = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<Object, Deque<Instant>> created = new HashMap<>();

    /**
     * A book.
     *
     * @param window     repeats within this time after the previous occurrence join its series
     * @param flushEvery a series' count is written at most this often
     * @param perObject  at most this many distinct Events about one object within the window
     * @param maxSeries  at most this many series remembered (the least recently seen is forgotten first)
     */
    public SeriesBook(Duration window, Duration flushEvery, int perObject, int maxSeries) {
        this.window = Objects.requireNonNull(window, "window");
        this.flushEvery = Objects.requireNonNull(flushEvery, "flushEvery");
        this.perObject = perObject;
        this.maxSeries = maxSeries;
    }

    /**
     * Records one report.
     *
     * @param key       what makes two reports the same (object, reason, action, note, type)
     * @param object    the object it is about
     * @param namespace the namespace its Event goes to
     * @param now       the time
     * @return the verdict, and the series concerned (null when dropped)
     */
    public Result record(Object key, Object object, String namespace, Instant now) {
        Series s = series.get(key);
        if (s != null && s.name != null && !now.isAfter(s.lastObserved.plus(window))) {
            s.count++;
            s.lastObserved = now;
            if (s.written == 1) {
                return new Result(Verdict.WRITE_SERIES, s);
            }
            return new Result(Verdict.COUNTED, s);
        }
        Deque<Instant> times = created.computeIfAbsent(object, o -> new ArrayDeque<>());
        while (!times.isEmpty() && now.isAfter(times.peekFirst().plus(window))) {
            times.pollFirst();
        }
        if (times.size() >= perObject) {
            return new Result(Verdict.DROPPED, null);
        }
        times.addLast(now);
        s = new Series(namespace, now);
        series.put(key, s);
        evict(now);
        return new Result(Verdict.CREATE, s);
    }

    /** Forgets the series of {@code key} (its Event could not be written; the next report creates one). */
    public void forget(Object key) {
        series.remove(key);
    }

    /** The series with counts not yet written whose last write is at least the flush interval ago (or all). */
    public List<Series> due(Instant now, boolean all) {
        List<Series> due = new ArrayList<>();
        for (Series s : series.values()) {
            if (all ? s.name != null && s.count > s.written : due(s, now)) {
                due.add(s);
            }
        }
        return due;
    }

    /** Whether {@code s} has a count not yet written and its last write is at least the flush interval ago. */
    public boolean due(Series s, Instant now) {
        return s.name != null && s.count > s.written && !now.isBefore(s.lastWritten.plus(flushEvery));
    }

    private void evict(Instant now) {
        Iterator<Map.Entry<Object, Series>> it = series.entrySet().iterator();
        while (it.hasNext()) {
            Series s = it.next().getValue();
            boolean over = series.size() > maxSeries;
            boolean ended = now.isAfter(s.lastObserved.plus(window)) && s.count == s.written;
            if (!over && !ended) {
                break;
            }
            it.remove();
        }
        if (created.size() > maxSeries) {
            created.values().removeIf(times -> times.isEmpty() || now.isAfter(times.peekLast().plus(window)));
        }
    }

    /**
     * A verdict and its series.
     *
     * @param verdict what to do
     * @param series  the series (null when dropped)
     */
    public record Result(Verdict verdict, Series series) {
    }
}
