package dev.remedy.core.store;

import dev.remedy.spi.TimeSource;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves corrupt record files aside under timestamped names and remembers each, so none is dropped silently. A
 * quarantine for reading only reports them where they are.
 */
final class Quarantine {

    private static final Logger LOG = LoggerFactory.getLogger(JsonFileStateStore.class);
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final Path directory;
    private final Path quarantine;
    private final TimeSource time;
    private final boolean moves;
    private final List<CorruptRecordFile> found = new CopyOnWriteArrayList<>();
    private final Set<Path> stuck = ConcurrentHashMap.newKeySet();

    /** A quarantine of {@code directory}; one that does not {@code move} files only reports them. */
    Quarantine(Path directory, TimeSource time, boolean moves) {
        this.moves = moves;
        this.directory = directory;
        this.quarantine = directory.resolve(JsonFileStateStore.QUARANTINE_DIRECTORY);
        this.time = time;
    }

    /** Every corrupt file found, oldest first. */
    List<CorruptRecordFile> found() {
        return List.copyOf(found);
    }

    /** Notes that {@code file} reads well (again). */
    void readable(Path file) {
        stuck.remove(file);
    }

    /** Moves a corrupt file aside and reports it (once, if it cannot be moved); whether it was moved. */
    boolean move(Path file, String reason) {
        Instant at = time.instant();
        Path target = null;
        IOException failure = null;
        if (!moves) {
            if (stuck.add(file)) {
                found.add(new CorruptRecordFile(file, reason, Optional.empty(), at));
            }
            return false;
        }
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
            DurableFiles.syncDirectory(quarantine);
            DurableFiles.syncDirectory(directory);
            stuck.remove(file);
        } catch (IOException e) {
            failure = e;
        }
        if (target == null && !stuck.add(file)) {
            return false; // already reported
        }
        CorruptRecordFile report = new CorruptRecordFile(file, reason, Optional.ofNullable(target), at);
        found.add(report);
        if (failure == null) {
            LOG.warn("Quarantined a corrupt fence record: {}", report.describe());
        } else {
            LOG.warn("Could not quarantine a corrupt fence record: {}", report.describe(), failure);
        }
        return target != null;
    }
}
