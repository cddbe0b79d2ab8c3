package dev.remedy.core.store;

import dev.remedy.spi.RemedyException;

/** A save lost an optimistic-concurrency race: someone else saved the node's record first. */
public class StaleRecordException extends RemedyException {

    /** An exception naming the node and both versions. */
    public StaleRecordException(String node, long expected, long found) {
        super("fence record of node '" + node + "' changed concurrently: saving version " + expected
                + " but the store holds version " + found + "; reload and apply again");
    }
}
