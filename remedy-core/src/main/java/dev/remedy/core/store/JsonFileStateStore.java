package dev.remedy.core.store;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.spi.TimeSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FenceStateStore} keeping one JSON file per node in a directory, crash-safely.
 *
 * <p>A save writes a temp file in the same directory and forces it to disk, renames the current record to its
 * previous version ({@code <file>.prev}), renames the temp file atomically over the record file and then forces
 * the directory (where the platform allows opening a directory; elsewhere that last step is skipped). A crash
 * therefore leaves the new record, or the old one (as the record or as its previous version), plus perhaps a temp
 * file, which is ignored and removed. File names are derived from node names injectively and never leave the
 * directory.
 *
 * <p>A file that cannot be read (invalid JSON, unknown or missing fields, unknown codes, another format number,
 * a node name that does not match the file) is never dropped silently: it is moved to {@code quarantine/} under
 * a timestamped name, logged as a warning and reported by {@link #problems()} and {@link #corruptFiles()}. The
 * node then falls back to the previous version of its record, if that one reads well (every effect of a flow is
 * idempotent, so running again from the previous state is safe); otherwise {@link #lostRecords()} names it, so
 * that the engine holds it for an admin.
 *
 * <p>One store per directory: the constructor takes an exclusive lock on the directory, which a second store, in
 * this process or another, cannot take; {@link #close()} releases it, and so does the end of the process.
 * {@link #inspect(Path)} reads a directory without the lock and without changing anything.
 *
 * <p>Thread-safe: operations on one node are serialized by a per-node lock (a {@link ReentrantLock}, so virtual
 * threads are not pinned during I/O); different nodes proceed concurrently. Every method blocks on file I/O.
 */
public final class JsonFileStateStore implements FenceStateStore, AutoCloseable {

    /** The subdirectory that corrupt record files are moved to. */
    public static final String QUARANTINE_DIRECTORY = "quarantine";

    private static final Logger LOG = LoggerFactory.getLogger(JsonFileStateStore.class);
    private static final int MAX_FILE_BYTES = 16 * 1024 * 1024;

    private final Path directory;
    private final FenceRecordCodec codec = new FenceRecordCodec();
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<String, String> lost = new ConcurrentHashMap<>();
    private final Quarantine quarantine;
    private final DirectoryLock lock;
    private volatile boolean closed;

    /**
     * A store in {@code directory}, created if missing, with the system clock for quarantine timestamps.
     *
     * @throws IllegalArgumentException if {@code directory} exists and is not a directory
     * @throws StateStoreException      if the directory cannot be created, listed or locked, or another store holds
     *                                  it (the message names the holder)
     */
    public JsonFileStateStore(Path directory) {
        this(directory, TimeSource.system());
    }

    /**
     * A store in {@code directory}, created if missing; {@code time} stamps quarantined files. Temp files left by
     * an interrupted save are removed.
     *
     * @throws IllegalArgumentException if {@code directory} exists and is not a directory
     * @throws StateStoreException      if the directory cannot be created, listed or locked, or another store holds
     *                                  it (the message names the holder)
     */
    public JsonFileStateStore(Path directory, TimeSource time) {
        this(directory, time, true);
    }

    private JsonFileStateStore(Path directory, TimeSource time, boolean writable) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(time, "time");
        this.directory = directory.toAbsolutePath().normalize();
        if (Files.exists(this.directory) && !Files.isDirectory(this.directory)) {
            throw new IllegalArgumentException("fence state directory " + this.directory + " exists but is not a "
                    + "directory; give the path of a directory (it is created if missing) or remove the file");
        }
        this.quarantine = new Quarantine(this.directory, time, writable);
        if (!writable) {
            this.lock = null;
            return;
        }
        try {
            Files.createDirectories(this.directory);
        } catch (IOException e) {
            throw new StateStoreException("could not create the fence state directory " + this.directory
                    + ": " + e + "; check the path and its permissions", e);
        }
        this.lock = DirectoryLock.acquire(this.directory, time.instant());
        for (String name : listDirectory()) {
            if (RecordFileNames.isTemp(name)) {
                removeTemp(name);
            }
        }
    }

    /**
     * What {@code directory} holds, read without taking its lock and without moving or removing anything: for
     * looking at the records of a running engine.
     *
     * @throws IllegalArgumentException if {@code directory} is not a directory
     */
    public static StateDirectoryReport inspect(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("fence state directory " + directory + " does not exist or is not a"
                    + " directory; give the directory the engine keeps its records in");
        }
        JsonFileStateStore reader = new JsonFileStateStore(directory, TimeSource.system(), false);
        List<NodeFence> records = reader.loadAll();
        List<String> quarantined = new ArrayList<>();
        Path moved = reader.directory.resolve(QUARANTINE_DIRECTORY);
        if (Files.isDirectory(moved)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(moved)) {
                entries.forEach(entry -> quarantined.add(entry.toString()));
            } catch (IOException e) {
                quarantined.add(moved + " cannot be listed: " + e);
            }
            quarantined.sort(null);
        }
        Optional<String> holder = DirectoryLock.isHeld(reader.directory)
                ? Optional.of(DirectoryLock.describeHolder(reader.directory)) : Optional.empty();
        return new StateDirectoryReport(reader.directory, records, reader.problems(), quarantined,
                reader.lostRecords(), holder);
    }

    /** The directory holding the record files (absolute). */
    public Path directory() {
        return directory;
    }

    @Override
    public Optional<NodeFence> load(String node) {
        String fileName = RecordFileNames.of(node);
        return withLock(fileName, () -> read(fileName, false));
    }

    @Override
    public List<NodeFence> loadAll() {
        TreeSet<String> recordFiles = new TreeSet<>();
        for (String name : listDirectory()) {
            if (RecordFileNames.isTemp(name)) {
                if (lock != null) {
                    withLock(RecordFileNames.recordOfTemp(name), () -> {
                        removeTemp(name);
                        return null;
                    });
                }
            } else if (Files.isRegularFile(directory.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
                if (name.endsWith(RecordFileNames.SUFFIX)) {
                    recordFiles.add(name);
                } else if (name.endsWith(RecordFileNames.SUFFIX + RecordFileNames.PREVIOUS_SUFFIX)) {
                    recordFiles.add(name.substring(0, name.length() - RecordFileNames.PREVIOUS_SUFFIX.length()));
                }
            }
        }
        List<NodeFence> records = new ArrayList<>();
        for (String name : recordFiles) {
            withLock(name, () -> read(name, false)).ifPresent(records::add);
        }
        return List.copyOf(records);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A corrupt file in the way is quarantined first (the previous version of the record, if good, then holds
     * the version a save must match; otherwise only a record with version 0 can replace it).
     *
     * @throws StateStoreException if the record cannot be written, or a corrupt file in the way cannot be moved
     */
    @Override
    public NodeFence save(NodeFence record) {
        requireWritable();
        String fileName = RecordFileNames.of(record.node());
        return withLock(fileName, () -> {
            long found = read(fileName, true).map(NodeFence::version).orElse(0L);
            if (found != record.version()) {
                throw new StaleRecordException(record.node(), record.version(), found);
            }
            NodeFence saved = record.withVersion(record.version() + 1);
            write(fileName, codec.write(saved), record.node());
            lost.remove(record.node());
            return saved;
        });
    }

    /**
     * {@inheritDoc}
     *
     * @throws StateStoreException if a file of the record exists and cannot be removed
     */
    @Override
    public void delete(String node) {
        requireWritable();
        String fileName = RecordFileNames.of(node);
        withLock(fileName, () -> {
            try {
                // the previous version first: a crash in between must not bring back a deleted record
                boolean removed = Files.deleteIfExists(file(RecordFileNames.previous(fileName)));
                if (Files.deleteIfExists(file(fileName)) || removed) {
                    DurableFiles.syncDirectory(directory);
                }
            } catch (IOException e) {
                throw new StateStoreException("could not delete the fence record of node '" + node + "' ("
                        + file(fileName) + "): " + e, e);
            }
            lost.remove(node);
            return null;
        });
    }

    /** {@inheritDoc} One {@link CorruptRecordFile#describe()} sentence per file found corrupt. */
    @Override
    public List<String> problems() {
        return quarantine.found().stream().map(CorruptRecordFile::describe).toList();
    }

    /** {@inheritDoc} */
    @Override
    public Map<String, String> lostRecords() {
        return Map.copyOf(lost);
    }

    /** The record files found corrupt since this store was created, oldest first. */
    public List<CorruptRecordFile> corruptFiles() {
        return quarantine.found();
    }

    /** Releases the directory's lock; the store can no longer be used. Idempotent. */
    @Override
    public void close() {
        closed = true;
        if (lock != null) {
            lock.close();
        }
    }

    @Override
    public String toString() {
        return "JsonFileStateStore[" + directory + "]";
    }

    private void requireWritable() {
        if (lock == null) {
            throw new IllegalStateException("a store opened by inspect() only reads; open a JsonFileStateStore to "
                    + "change records");
        }
    }

    private Path file(String fileName) {
        Path file = directory.resolve(fileName);
        if (!directory.equals(file.normalize().getParent())) {
            throw new IllegalStateException("record file name " + fileName + " escapes " + directory);
        }
        return file;
    }

    private <T> T withLock(String fileName, Supplier<T> action) {
        if (closed) {
            throw new IllegalStateException("the fence state store of " + directory + " is closed");
        }
        ReentrantLock nodeLock = locks.computeIfAbsent(fileName, k -> new ReentrantLock());
        nodeLock.lock();
        try {
            return action.get();
        } finally {
            nodeLock.unlock();
        }
    }

    /**
     * The record of {@code fileName}: its latest version, or the previous one if the latest is missing or
     * corrupt. Corrupt files are quarantined (and must be, if {@code forSave}).
     */
    private Optional<NodeFence> read(String fileName, boolean forSave) {
        Path latestFile = file(fileName);
        RecordRead latest = readOne(latestFile, fileName);
        if (latest.record().isPresent()) {
            return latest.record();
        }
        if (latest.corrupt() && !quarantine.move(latestFile, latest.problem()) && forSave) {
            throw new StateStoreException("fence record file " + latestFile + " is corrupt (" + latest.problem()
                    + ") and could not be moved to quarantine, so it is not overwritten; move or delete it");
        }
        Path previousFile = file(RecordFileNames.previous(fileName));
        RecordRead previous = readOne(previousFile, fileName);
        if (previous.record().isPresent()) {
            if (latest.corrupt()) {
                LOG.warn("The fence record of node '{}' was corrupt; using its previous version {} from {} (every "
                        + "effect of a flow is idempotent, so running again from there is safe)",
                        previous.record().get().node(), previous.record().get().version(), previousFile);
            }
            return previous.record();
        }
        if (previous.corrupt() && !quarantine.move(previousFile, previous.problem()) && forSave) {
            throw new StateStoreException("fence record file " + previousFile + " is corrupt (" + previous.problem()
                    + ") and could not be moved to quarantine; move or delete it");
        }
        if (latest.corrupt() || previous.corrupt()) {
            RecordRead bad = latest.corrupt() ? latest : previous;
            RecordFileNames.nodeOf(fileName, bad.content()).ifPresent(node -> lost.put(node, "its record "
                    + latestFile + " was corrupt (" + bad.problem() + ") and no earlier version of it reads well"));
        }
        return Optional.empty();
    }

    /** One file of a record: its record, or why it is corrupt, or neither if it does not exist. */
    private RecordRead readOne(Path file, String recordFileName) {
        byte[] bytes;
        try {
            bytes = readBounded(file);
        } catch (NoSuchFileException e) {
            return RecordRead.MISSING;
        } catch (IOException e) {
            throw new StateStoreException("could not read fence record file " + file + ": " + e, e);
        }
        try {
            if (bytes.length > MAX_FILE_BYTES) {
                throw new CorruptRecordException("larger than " + MAX_FILE_BYTES + " bytes");
            }
            NodeFence record = codec.read(bytes);
            String expected = RecordFileNames.of(record.node());
            if (expected.equals(recordFileName)) {
                quarantine.readable(file);
                return new RecordRead(Optional.of(record), null, bytes);
            }
            return new RecordRead(Optional.empty(), "the record names node '" + record.node()
                    + "', whose file would be " + expected, bytes);
        } catch (CorruptRecordException e) {
            return new RecordRead(Optional.empty(), e.getMessage(), bytes);
        }
    }

    private byte[] readBounded(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return in.readNBytes(MAX_FILE_BYTES + 1);
        }
    }

    private void write(String fileName, byte[] json, String node) {
        Path file = file(fileName);
        Path temp = null;
        boolean moved = false;
        try {
            temp = Files.createTempFile(directory, RecordFileNames.tempPrefix(fileName), RecordFileNames.TEMP_SUFFIX);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(json);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(file, file(RecordFileNames.previous(fileName)), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } catch (AtomicMoveNotSupportedException e) {
            throw new StateStoreException("the file system of " + directory + " cannot rename atomically, so the "
                    + "fence record of node '" + node + "' was not saved; put the state directory on a local file "
                    + "system", e);
        } catch (IOException e) {
            throw new StateStoreException("could not save the fence record of node '" + node + "' to " + file + ": "
                    + e + "; the previous record is unchanged", e);
        } finally {
            if (!moved && temp != null) {
                DurableFiles.deleteQuietly(temp);
            }
        }
        DurableFiles.syncDirectory(directory);
    }

    private List<String> listDirectory() {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                names.add(entry.getFileName().toString());
            }
        } catch (IOException e) {
            throw new StateStoreException("could not list the fence state directory " + directory + ": " + e, e);
        }
        names.sort(null);
        return names;
    }

    private void removeTemp(String name) {
        Path temp = directory.resolve(name);
        if (Files.isRegularFile(temp, LinkOption.NOFOLLOW_LINKS)) {
            LOG.info("Removing {}, left by a save that did not finish", temp);
            DurableFiles.deleteQuietly(temp);
        }
    }

    /** What reading one file gave: a record, or a problem (then the file exists but is corrupt), or neither. */
    private record RecordRead(Optional<NodeFence> record, String problem, byte[] content) {
        static final RecordRead MISSING = new RecordRead(Optional.empty(), null, new byte[0]);

        boolean corrupt() {
            return problem != null;
        }
    }
}
