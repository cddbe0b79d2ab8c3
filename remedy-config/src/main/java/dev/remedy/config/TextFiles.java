package dev.remedy.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Reads small text files, bounded, the one way remedy reads configuration documents and secret files: a regular
 * file only (a named pipe would make the reader wait for a writer forever, and a device such as {@code /dev/zero}
 * never ends), of at most a given size (checked before and while reading, so a growing file cannot slip past), in
 * UTF-8. A refusal says what is wrong and what to do, without the file's name (the caller names it) and never with
 * its content, which may be a secret.
 *
 * <p>Thread-safe; blocks on file I/O.
 */
public final class TextFiles {

    private TextFiles() {
    }

    /**
     * The text of {@code file}, at most {@code maxBytes} bytes of UTF-8.
     *
     * @throws DocumentException if the file does not exist, cannot be read, is not a regular file, is larger than
     *                           {@code maxBytes} or is not UTF-8; the cause is the I/O error, if there was one
     */
    public static String read(Path file, int maxBytes) {
        Objects.requireNonNull(file, "file");
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (attributes.isDirectory()) {
                throw new DocumentException("it is a directory; give the path of a file");
            }
            if (!attributes.isRegularFile()) {
                throw new DocumentException("it is not a regular file but a named pipe, a device or a socket, which "
                        + "may never end; give the path of a regular file");
            }
            if (attributes.size() > maxBytes) {
                throw tooLarge(maxBytes);
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(maxBytes + 1);
            }
            if (bytes.length > maxBytes) {
                throw tooLarge(maxBytes);
            }
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new DocumentException("it is not UTF-8 text; save it as UTF-8", e);
        } catch (NoSuchFileException e) {
            throw new DocumentException("no such file; check the path", e);
        } catch (AccessDeniedException e) {
            throw new DocumentException("permission denied; make it readable by the user that runs remedy", e);
        } catch (IOException e) {
            throw new DocumentException("it cannot be read (" + e.getClass().getSimpleName() + "); check that it "
                    + "exists and is readable", e);
        }
    }

    /** {@code 512 bytes}, {@code 64 KiB}, {@code 8 MiB}: a size for messages, exact when it is a power of 1024. */
    public static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return bytes / (1 << 10) + " KiB";
        }
        return bytes + " bytes";
    }

    private static DocumentException tooLarge(int maxBytes) {
        return new DocumentException("it is larger than " + size(maxBytes) + ", the most remedy reads from such a "
                + "file; give a smaller file");
    }
}
