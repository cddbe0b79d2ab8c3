package dev.remedy.core.store;

/** A record file that cannot be read as a fence record; the message says why. Internal to the store. */
final class CorruptRecordException extends Exception {

    CorruptRecordException(String reason) {
        super(reason);
    }
}
