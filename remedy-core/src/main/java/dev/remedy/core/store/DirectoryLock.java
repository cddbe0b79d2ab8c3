package dev.remedy.core.store;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The exclusive lock one store holds on its directory, so that two engines (in two processes or in one) never
 * run on the same records. The lock file holds who took it (pid, host, since when), for the message the next
 * engine gets. The operating system drops the lock when the process dies, so a crash never leaves it behind.
 */
final class DirectoryLock implements AutoCloseable {

    /** The lock file's name: not a record name, not a temp file name. */
    static final String FILE_NAME = ".remedy.lock";
    private static final int MAX_HOLDER_BYTES = 512;

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code directory}.
     *
     * @throws StateStoreException naming the holder if another store holds it, or if the lock file cannot be used
     */
    static DirectoryLock acquire(Path directory, Instant now) {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by another store in this JVM
            }
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw new StateStoreException("the fence state directory " + directory + " is in use by another "
                        + "engine (" + holder + ", per " + file + "): two engines on one directory would fence the "
                        + "same node twice; stop the other engine, or give this one a directory of its own");
            }
            byte[] me = ("pid " + ProcessHandle.current().pid() + " on " + hostName() + " since " + now + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(me), 0);
            channel.force(true);
            return new DirectoryLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StateStoreException("could not lock the fence state directory " + directory + " (" + file
                    + "): " + e + "; check the path and its permissions", e);
        }
    }

    /** Who holds the lock of {@code directory}, as its lock file says, if a lock file exists. */
    static String describeHolder(Path directory) {
        try (FileChannel channel = FileChannel.open(directory.resolve(FILE_NAME), StandardOpenOption.READ)) {
            return holder(channel);
        } catch (NoSuchFileException e) {
            return "no engine has used it";
        } catch (IOException e) {
            return "the lock file cannot be read: " + e;
        }
    }

    /** Whether another store, in this process or another, holds the lock of {@code directory} now. */
    static boolean isHeld(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException e) {
            // closing the channel below releases it too
        }
        closeQuietly(channel);
    }

    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_HOLDER_BYTES);
        channel.read(buffer, 0);
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "holder unknown" : text.replaceAll("\\p{Cntrl}", " ");
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "an unknown host";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing left to release
            }
        }
    }
}
