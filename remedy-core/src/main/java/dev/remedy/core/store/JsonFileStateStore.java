package dev.remedy.core.store;

import dev.remedy.core.flow.NodeFence;
import dev.remedy.spi.TimeSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FenceStateStore} keeping one JSON file per node in a directory, crash-safely.
 *
 * <p>A save writes a temp file in the same directory, forces it to disk, renames it atomically over the record
 * file and then forces the directory (where the platform allows opening a directory; elsewhere that last step is
 * skipped). A crash therefore leaves either the old or the new record, plus perhaps a temp file, which is ignored
 * and removed. File names are derived from node names injectively and never leave the directory.
 *
 * <p>A file that cannot be read (invalid JSON, unknown or missing fields, unknown codes, another format number,
 * a node name that does not match the file) is never dropped silently: it is moved to {@code quarantine/} under
 * a timestamped name, logged as a warning and reported by {@link #problems()} and {@link #corruptFiles()}; its
 * node then has no record.
 *
 * <p>Thread-safe: operations on one node are serialized by a per-node lock (a {@link ReentrantLock}, so virtual
 * threads are not pinned during I/O); different nodes proceed concurrently. Every method blocks on file I/O. A
 * directory belongs to one store instance: the locks do not reach across processes.
 */
public final class JsonFileStateStore implements FenceStateStore {

    /** The subdirectory that corrupt record files are moved to. */
    public static final String QUARANTINE_DIRECTORY = "quarantine";

    private static final Logger LOG = LoggerFactory.getLogger(JsonFileStateStore.class);
    private static final int MAX_FILE_BYTES = 16 * 1024 * 1024;
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final Path directory;
    private final TimeSource time;
    private final FenceRecordCodec codec = new FenceRecordCodec();
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final List<CorruptRecordFile> corrupt = new CopyOnWriteArrayList<>();
    private final Set<Path> stuck = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean directorySyncWarned = new AtomicBoolean();

    /**
     * A store in {@code directory}, created if missing, with the system clock for quarantine timestamps.
     *
     * @throws IllegalArgumentException if {@code directory} exists and is not a directory
     * @throws StateStoreException      if the directory cannot be created or listed
     */
    public JsonFileStateStore(Path directory) {
        this(directory, TimeSource.system());
    }

    /**
     * A store in {@code directory}, created if missing; {@code time} stamps quarantined files. Temp files left by
     * an interrupted save are removed.
     *
     * @throws IllegalArgumentException if {@code directory} exists and is not a directory
     * @throws StateStoreException      if the directory cannot be created or listed
     */
    public JsonFileStateStore(Path directory, TimeSource time) {
        Objects.requireNonNull(directory, "directory");
        this.time = Objects.requireNonNull(time, "time");
        this.directory = directory.toAbsolutePath().normalize();
        if (Files.exists(this.directory) && !Files.isDirectory(this.directory)) {
            throw new IllegalArgumentException("fence state directory " + this.directory + " exists but is not a "
                    + "directory; give the path of a directory (it is created if missing) or remove the file");
        }
        try {
            Files.createDirectories(this.directory);
        } catch (IOException e) {
            throw new StateStoreException("could not create the fence state directory " + this.directory
                    + ": " + e + "; check the path and its permissions", e);
        }
        for (String name : listDirectory()) {
            if (RecordFileNames.isTemp(name)) {
                removeTemp(name);
            }
        }
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
        List<NodeFence> records = new ArrayList<>();
        for (String name : listDirectory()) {
            if (RecordFileNames.isTemp(name)) {
                withLock(RecordFileNames.recordOfTemp(name), () -> {
                    removeTemp(name);
                    return null;
                });
            } else if (name.endsWith(RecordFileNames.SUFFIX) && Files.isRegularFile(directory.resolve(name))) {
                withLock(name, () -> read(name, false)).ifPresent(records::add);
            }
        }
        return List.copyOf(records);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A corrupt file in the way is quarantined first (so only a record with version 0 can replace it).
     *
     * @throws StateStoreException if the record cannot be written, or a corrupt file in the way cannot be moved
     */
    @Override
    public NodeFence save(NodeFence record) {
        String fileName = RecordFileNames.of(record.node());
        return withLock(fileName, () -> {
            long found = read(fileName, true).map(NodeFence::version).orElse(0L);
            if (found != record.version()) {
                throw new StaleRecordException(record.node(), record.version(), found);
            }
            NodeFence saved = record.withVersion(record.version() + 1);
            write(fileName, codec.write(saved), record.node());
            return saved;
        });
    }

    /**
     * {@inheritDoc}
     *
     * @throws StateStoreException if the file exists and cannot be removed
     */
    @Override
    public void delete(String node) {
        String fileName = RecordFileNames.of(node);
        withLock(fileName, () -> {
            try {
                if (Files.deleteIfExists(file(fileName))) {
                    syncDirectory(directory);
                }
            } catch (IOException e) {
                throw new StateStoreException("could not delete the fence record of node '" + node + "' ("
                        + file(fileName) + "): " + e, e);
            }
            return null;
        });
    }

    /** {@inheritDoc} One {@link CorruptRecordFile#describe()} sentence per file found corrupt. */
    @Override
    public List<String> problems() {
        return corrupt.stream().map(CorruptRecordFile::describe).toList();
    }

    /** The record files found corrupt since this store was created, oldest first. */
    public List<CorruptRecordFile> corruptFiles() {
        return List.copyOf(corrupt);
    }

    @Override
    public String toString() {
        return "JsonFileStateStore[" + directory + "]";
    }

    private Path file(String fileName) {
        Path file = directory.resolve(fileName);
        if (!directory.equals(file.normalize().getParent())) {
            throw new IllegalStateException("record file name " + fileName + " escapes " + directory);
        }
        return file;
    }

    private <T> T withLock(String fileName, Supplier<T> action) {
        ReentrantLock lock = locks.computeIfAbsent(fileName, k -> new ReentrantLock());
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    /** The record in {@code fileName}; a corrupt file is quarantined (and must be, if {@code forSave}). */
    private Optional<NodeFence> read(String fileName, boolean forSave) {
        Path file = file(fileName);
        byte[] bytes;
        try {
            bytes = readBounded(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new StateStoreException("could not read fence record file " + file + ": " + e, e);
        }
        String reason;
        try {
            if (bytes.length > MAX_FILE_BYTES) {
                throw new CorruptRecordException("larger than " + MAX_FILE_BYTES + " bytes");
            }
            NodeFence record = codec.read(bytes);
            String expected = RecordFileNames.of(record.node());
            if (expected.equals(fileName)) {
                stuck.remove(file);
                return Optional.of(record);
            }
            reason = "the record names node '" + record.node() + "', whose file would be " + expected;
        } catch (CorruptRecordException e) {
            reason = e.getMessage();
        }
        if (!quarantine(file, reason) && forSave) {
            throw new StateStoreException("fence record file " + file + " is corrupt (" + reason + ") and could not "
                    + "be moved to quarantine, so it is not overwritten; move or delete it");
        }
        return Optional.empty();
    }

    private byte[] readBounded(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(MAX_FILE_BYTES + 1);
        }
    }

    /** Moves a corrupt file aside and reports it; whether it was moved. */
    private boolean quarantine(Path file, String reason) {
        Instant at = time.instant();
        Path quarantine = directory.resolve(QUARANTINE_DIRECTORY);
        Path target = null;
        IOException failure = null;
        try {
            Files.createDirectories(quarantine);
            String base = file.getFileName() + "." + STAMP.format(at);
            for (int n = 1; target == null; n++) {
                Path candidate = quarantine.resolve(n == 1 ? base : base + "-" + n);
                if (Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try {
                    Files.move(file, candidate);
                    target = candidate;
                } catch (FileAlreadyExistsException e) {
                    // another file took the name: try the next one
                }
            }
            syncDirectory(quarantine);
            syncDirectory(directory);
            stuck.remove(file);
        } catch (IOException e) {
            failure = e;
        }
        if (target == null && !stuck.add(file)) {
            return false; // already reported
        }
        CorruptRecordFile report = new CorruptRecordFile(file, reason, Optional.ofNullable(target), at);
        corrupt.add(report);
        if (failure == null) {
            LOG.warn("Quarantined a corrupt fence record: {}", report.describe());
        } else {
            LOG.warn("Could not quarantine a corrupt fence record: {}", report.describe(), failure);
        }
        return target != null;
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
                deleteQuietly(temp);
            }
        }
        syncDirectory(directory);
    }

    /** Forces the directory entry changes to disk where the platform can open a directory. */
    private void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            if (directorySyncWarned.compareAndSet(false, true)) {
                LOG.info("Cannot force the directory {} to disk on this platform ({}); renames rely on the file "
                        + "system's own ordering", dir, e.toString());
            }
        }
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
            deleteQuietly(temp);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("Could not remove the temp file {}: {}", file, e.toString());
        }
    }
}
