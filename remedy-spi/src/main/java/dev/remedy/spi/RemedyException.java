package dev.remedy.spi;

/**
 * The root of remedy's unchecked exceptions. Messages say what was wrong, with which input, and what to do;
 * they never contain a secret.
 */
public class RemedyException extends RuntimeException {

    /** An exception with a message. */
    public RemedyException(String message) {
        super(message);
    }

    /** An exception with a message and a cause. */
    public RemedyException(String message, Throwable cause) {
        super(message, cause);
    }
}
