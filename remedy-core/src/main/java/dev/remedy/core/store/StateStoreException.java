package dev.remedy.core.store;

import dev.remedy.spi.RemedyException;

/**
 * A state store could not read or write its storage (I/O failure, a file system without atomic rename, a corrupt
 * file that cannot be moved aside). The record may or may not have been written; reload before retrying.
 */
public class StateStoreException extends RemedyException {

    /** An exception with a message that names the node or file. */
    public StateStoreException(String message) {
        super(message);
    }

    /** An exception with a message that names the node or file, and the cause. */
    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
