package dev.remedy.core.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** File-system steps the JSON store needs to be crash-safe. */
final class DurableFiles {

    private static final Logger LOG = LoggerFactory.getLogger(JsonFileStateStore.class);
    private static final AtomicBoolean DIRECTORY_SYNC_WARNED = new AtomicBoolean();

    private DurableFiles() {
    }

    /** Forces the directory entry changes to disk where the platform can open a directory. */
    static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            if (DIRECTORY_SYNC_WARNED.compareAndSet(false, true)) {
                LOG.info("Cannot force the directory {} to disk on this platform ({}); renames rely on the file "
                        + "system's own ordering", dir, e.toString());
            }
        }
    }

    /** Deletes {@code file} if it exists, logging (not throwing) a failure. */
    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("Could not remove the temp file {}: {}", file, e.toString());
        }
    }
}
