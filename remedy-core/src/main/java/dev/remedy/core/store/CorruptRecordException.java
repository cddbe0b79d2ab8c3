package dev.remedy.core.store;

/**
 * A fence record document that cannot be read as a fence record; the message says why (which field, what was
 * wrong). Thrown by {@link FenceRecordJson#read}; only the store package creates it.
 */
public final class CorruptRecordException extends Exception {

    private static final long serialVersionUID = 1L;

    CorruptRecordException(String reason) {
        super(reason);
    }
}
