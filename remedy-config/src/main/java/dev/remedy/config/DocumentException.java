package dev.remedy.config;

import dev.remedy.spi.RemedyException;

/**
 * Thrown by {@link ConfigDocuments} when a document cannot be read or parsed. The message says what is wrong and
 * what to do, without the file name (the caller reports it as a {@link dev.remedy.spi.config.ConfigProblem} of
 * the file) and without quoting the
 * document (it may hold a secret).
 */
public class DocumentException extends RemedyException {

    /** An exception with {@code message}. */
    public DocumentException(String message) {
        super(message);
    }

    /** An exception with {@code message}, caused by {@code cause}. */
    public DocumentException(String message, Throwable cause) {
        super(message, cause);
    }
}
