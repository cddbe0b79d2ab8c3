package dev.remedy.fence.kube.events;

import dev.remedy.fence.kube.events.internal.SeriesBook;
import dev.remedy.fence.kube.events.internal.Texts;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link KubeEvents.Note}s as {@code events.k8s.io/v1} Events: reporting controller {@value #CONTROLLER},
 * reporting instance the identity given (a pod name), type Normal or Warning, the note capped at 1 KiB (UTF-8).
 *
 * <p><b>Namespace.</b> An Event about a namespaced object goes to that object's namespace. Nodes and NodeFences are
 * cluster-scoped, and the API server accepts Events about cluster-scoped objects only in {@code default} or
 * {@code kube-system} (where kubelet and the node controller put theirs): remedy writes them to {@code default}
 * unless {@link Builder#namespace(String)} chose {@code kube-system}.
 *
 * <p><b>No storms.</b> A report equal to an earlier one (same object, reason, action, note and type) within the
 * series window (default 6 min after its previous occurrence) does not create an Event: the earlier Event's
 * {@code series.count} and {@code series.lastObservedTime} are updated instead (at once for the first repeat, then at
 * most every flush interval, by JSON merge patch). At most {@link Builder#maxEventsPerObject(int)} distinct Events
 * about one object are created within a window; more are dropped and counted ({@link #dropped()}).
 *
 * <p><b>Threads.</b> {@link #publish} never blocks on the API server and never throws: the work runs on the
 * recorder's own thread behind a bounded queue (a full queue drops the report, counted and logged), or on an executor
 * the host gives ({@code Runnable::run} makes it synchronous). Failures are logged, never thrown.
 */
public final class EventRecorder implements KubeEvents, AutoCloseable {

    /** The reporting controller of every Event. */
    public static final String CONTROLLER = "remedy.dev/remedy";
    /** Where Events about cluster-scoped objects go by default. */
    public static final String DEFAULT_NAMESPACE = "default";
    /** The default series window. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(6);
    /** The default interval between writes of one series. */
    public static final Duration DEFAULT_FLUSH = Duration.ofSeconds(30);
    /** The default bound of distinct Events about one object within a window. */
    public static final int DEFAULT_PER_OBJECT = 25;
    /** The default capacity of the queue of the recorder's own thread. */
    public static final int DEFAULT_QUEUE = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final int FIELD_LIMIT = 128;
    private static final int MAX_SERIES = 10_000;

    private final KubernetesClient client;
    private final String instance;
    private final String clusterNamespace;
    private final TimeSource time;
    private final Executor executor;
    private final ScheduledExecutorService owned;
    private final int capacity;
    private final SeriesBook book;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();

    private EventRecorder(Builder b) {
        this.client = b.client;
        this.instance = Texts.cap(b.identity, FIELD_LIMIT);
        this.clusterNamespace = b.namespace;
        this.time = b.time;
        this.capacity = b.queue;
        this.book = new SeriesBook(b.window, b.flush, b.perObject, MAX_SERIES);
        if (b.executor == null) {
            owned = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "remedy-events");
                t.setDaemon(true);
                return t;
            });
            owned.scheduleWithFixedDelay(() -> flush(false), b.flush.toMillis(), b.flush.toMillis(),
                    TimeUnit.MILLISECONDS);
            executor = owned;
        } else {
            owned = null;
            executor = b.executor;
        }
    }

    /** A builder writing with {@code client}, as reporting instance {@code identity} (this replica's pod name). */
    public static Builder builder(KubernetesClient client, String identity) {
        return new Builder(client, identity);
    }

    @Override
    public void publish(Note event) {
        if (event == null) {
            return;
        }
        if (owned != null && queued.incrementAndGet() > capacity) {
            queued.decrementAndGet();
            drop("the queue of " + capacity + " reports is full", event);
            return;
        }
        try {
            executor.execute(() -> {
                if (owned != null) {
                    queued.decrementAndGet();
                }
                write(event);
            });
        } catch (RuntimeException e) {
            if (owned != null) {
                queued.decrementAndGet();
            }
            drop("the executor refused it (" + e + ")", event);
        }
    }

    /** Writes the series counts not yet written, on the calling thread (the timer does it periodically). */
    public void flush() {
        flush(true);
    }

    /** How many reports were dropped: queue full, executor refused, or too many Events about one object. */
    public long dropped() {
        return dropped.get();
    }

    /** Writes what is pending, waiting at most 5 s for the queue, and stops the recorder's own thread. */
    @Override
    public void close() {
        if (owned != null) {
            owned.shutdown();
            try {
                if (!owned.awaitTermination(5, TimeUnit.SECONDS)) {
                    LOG.warn("Events still queued after 5 s at close were not written");
                    owned.shutdownNow();
                }
            } catch (InterruptedException e) {
                owned.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        flush(true);
    }

    private void write(Note note) {
        try {
            ObjectReference regarding = note.regarding();
            String namespace = regarding.getNamespace() == null || regarding.getNamespace().isEmpty()
                    ? clusterNamespace : regarding.getNamespace();
            String text = Texts.capUtf8(note.note(), KubeEvents.NOTE_LIMIT);
            Object object = new ObjectKey(regarding.getKind(), regarding.getNamespace(), regarding.getName(),
                    regarding.getUid());
            Object key = new SeriesKey(object, note.reason(), note.action(), text, note.warning());
            Instant now = time.instant();
            SeriesBook.Result result;
            synchronized (book) {
                result = book.record(key, object, namespace, now);
            }
            switch (result.verdict()) {
                case CREATE -> create(key, result.series(), note, text, now);
                case WRITE_SERIES -> writeSeries(key, result.series(), note);
                case COUNTED -> {
                    boolean due;
                    synchronized (book) {
                        due = book.due(result.series(), now);
                    }
                    if (due) {
                        patchSeries(result.series());
                    }
                }
                case DROPPED -> drop("more than the allowed distinct Events about " + regarding.getKind() + " "
                        + regarding.getName() + " within the window", note);
                default -> throw new IllegalStateException("unknown verdict " + result.verdict());
            }
        } catch (RuntimeException e) {
            LOG.warn("could not write Event {} about {} {}: {}", note.reason(), note.regarding().getKind(),
                    note.regarding().getName(), e.toString());
        }
    }

    private void create(Object key, SeriesBook.Series series, Note note, String text, Instant now) {
        for (int attempt = 0; attempt < 2; attempt++) {
            String name = eventName(note.regarding().getName(), now);
            Event event = new EventBuilder().withNewMetadata().withName(name).withNamespace(series.namespace())
                    .endMetadata().withEventTime(micro(now)).withReportingController(CONTROLLER)
                    .withReportingInstance(instance).withAction(Texts.cap(note.action(), FIELD_LIMIT))
                    .withReason(Texts.cap(note.reason(), FIELD_LIMIT)).withNote(text)
                    .withType(note.warning() ? "Warning" : "Normal").withRegarding(note.regarding()).build();
            try {
                client.events().v1().events().inNamespace(series.namespace()).resource(event).create();
                synchronized (book) {
                    series.named(name);
                }
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 1) {
                    forget(key);
                    LOG.warn("could not create Event {} about {} {} in namespace {} (HTTP {}: {}); remedy needs"
                            + " create and patch on events.events.k8s.io there", note.reason(),
                            note.regarding().getKind(), note.regarding().getName(), series.namespace(), e.getCode(),
                            e.getMessage());
                    return;
                }
            }
        }
    }

    private void writeSeries(Object key, SeriesBook.Series series, Note note) {
        KubernetesClientException failed = patchSeries(series);
        if (failed != null && failed.getCode() == 404) {
            forget(key);
            write(note);
        }
    }

    private void flush(boolean all) {
        try {
            List<SeriesBook.Series> due;
            synchronized (book) {
                due = book.due(time.instant(), all);
            }
            due.forEach(this::patchSeries);
        } catch (RuntimeException e) {
            LOG.warn("could not write Event series: {}", e.toString());
        }
    }

    /** Writes the series' count and last time (JSON merge patch); returns the failure, logged, or null. */
    private KubernetesClientException patchSeries(SeriesBook.Series series) {
        int count;
        Instant last;
        synchronized (book) {
            count = series.count();
            last = series.lastObserved();
        }
        try {
            client.events().v1().events().inNamespace(series.namespace()).withName(series.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"series\":{\"count\":" + count
                            + ",\"lastObservedTime\":\"" + Texts.micro(last) + "\"}}");
            return null;
        } catch (KubernetesClientException e) {
            LOG.warn("could not update the series of Event {}/{} (HTTP {}: {})", series.namespace(),
                    series.name(), e.getCode(), e.getMessage());
            return e;
        } finally {
            synchronized (book) {
                series.written(count, time.instant());
            }
        }
    }

    private void forget(Object key) {
        synchronized (book) {
            book.forget(key);
        }
    }

    private void drop(String why, Note note) {
        long n = dropped.incrementAndGet();
        if (n == 1 || n % 100 == 0) {
            LOG.warn("Event {} about {} {} dropped: {} ({} dropped so far)", note.reason(),
                    note.regarding().getKind(), note.regarding().getName(), why, n);
        }
    }

    /** {@code <object>.<16 hex digits>}, as client-go names Events; the object's part is cut to fit 253. */
    private String eventName(String object, Instant now) {
        long unique = now.getEpochSecond() * 1_000_000_000L + now.getNano() + sequence.getAndIncrement();
        String suffix = "." + String.format("%016x", unique);
        String base = object == null || object.isEmpty() ? "remedy" : object;
        return Texts.cap(base, 253 - suffix.length()) + suffix;
    }

    private static MicroTime micro(Instant at) {
        return new MicroTime(Texts.micro(at));
    }

    private record ObjectKey(String kind, String namespace, String name, String uid) {
    }

    private record SeriesKey(Object object, String reason, String action, String note, boolean warning) {
    }

    /** Builds an {@link EventRecorder}. */
    public static final class Builder {
        private static final Set<String> CLUSTER_NAMESPACES = Set.of("default", "kube-system");
        private final KubernetesClient client;
        private final String identity;
        private String namespace = DEFAULT_NAMESPACE;
        private TimeSource time = TimeSource.system();
        private Executor executor;
        private Duration window = DEFAULT_WINDOW;
        private Duration flush = DEFAULT_FLUSH;
        private int perObject = DEFAULT_PER_OBJECT;
        private int queue = DEFAULT_QUEUE;

        private Builder(KubernetesClient client, String identity) {
            this.client = Objects.requireNonNull(client, "client");
            Objects.requireNonNull(identity, "identity");
            if (identity.isBlank()) {
                throw new IllegalArgumentException("the reporting instance (identity) must not be blank: give the"
                        + " pod name");
            }
            this.identity = identity;
        }

        /** Where Events about cluster-scoped objects go: {@code default} (the default) or {@code kube-system}. */
        public Builder namespace(String value) {
            if (!CLUSTER_NAMESPACES.contains(value)) {
                throw new IllegalArgumentException("Events about cluster-scoped objects (Nodes, NodeFences) are"
                        + " accepted by the API server only in default or kube-system, not '" + value + "'");
            }
            this.namespace = value;
            return this;
        }

        /** The clock of event times and windows; default the system clock. */
        public Builder time(TimeSource value) {
            this.time = Objects.requireNonNull(value, "time");
            return this;
        }

        /** Runs the writes on {@code value} instead of the recorder's own thread ({@code Runnable::run}: at once). */
        public Builder executor(Executor value) {
            this.executor = Objects.requireNonNull(value, "executor");
            return this;
        }

        /** Repeats within this time after the previous occurrence join its series (default 6 min). */
        public Builder seriesWindow(Duration value) {
            this.window = positive(value, "seriesWindow");
            return this;
        }

        /** A series' count is written at most this often (default 30 s; at least 1 s). */
        public Builder flushEvery(Duration value) {
            this.flush = positive(value, "flushEvery");
            if (value.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("flushEvery must be at least 1s, got " + value);
            }
            return this;
        }

        /** At most this many distinct Events about one object within a window (default 25). */
        public Builder maxEventsPerObject(int value) {
            this.perObject = atLeastOne(value, "maxEventsPerObject");
            return this;
        }

        /** The capacity of the queue of the recorder's own thread (default 1000). */
        public Builder queueCapacity(int value) {
            this.queue = atLeastOne(value, "queueCapacity");
            return this;
        }

        /** The recorder. */
        public EventRecorder build() {
            return new EventRecorder(this);
        }

        private static Duration positive(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + value);
            }
            return value;
        }

        private static int atLeastOne(int value, String name) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be at least 1, got " + value);
            }
            return value;
        }
    }
}
