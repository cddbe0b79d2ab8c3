package dev.remedy.core.rules;

import java.util.Objects;

/**
 * Answers counted so far, over every batch asked.
 *
 * @param healthy   {@link PeerAnswer#HEALTHY} answers
 * @param unhealthy {@link PeerAnswer#UNHEALTHY} answers
 * @param apiErrors {@link PeerAnswer#API_ERROR} answers
 * @param noAnswer  {@link PeerAnswer#NO_ANSWER} answers
 */
public record PeerTally(int healthy, int unhealthy, int apiErrors, int noAnswer) {

    /** No answer yet. */
    public static final PeerTally EMPTY = new PeerTally(0, 0, 0, 0);

    /** Validates the fields. */
    public PeerTally {
        requireCount(healthy, "healthy");
        requireCount(unhealthy, "unhealthy");
        requireCount(apiErrors, "apiErrors");
        requireCount(noAnswer, "noAnswer");
    }

    private static void requireCount(int n, String field) {
        if (n < 0) {
            throw new IllegalArgumentException(field + ": must be 0 or more, was " + n);
        }
    }

    /**
     * Counts answers.
     *
     * @param answers the answers
     * @return their tally
     */
    public static PeerTally of(Iterable<PeerAnswer> answers) {
        PeerTally t = EMPTY;
        for (PeerAnswer a : Objects.requireNonNull(answers, "answers")) {
            t = t.plus(a);
        }
        return t;
    }

    /**
     * Adds one answer.
     *
     * @param answer the answer
     * @return the new tally
     */
    public PeerTally plus(PeerAnswer answer) {
        return switch (Objects.requireNonNull(answer, "answer")) {
            case HEALTHY -> new PeerTally(healthy + 1, unhealthy, apiErrors, noAnswer);
            case UNHEALTHY -> new PeerTally(healthy, unhealthy + 1, apiErrors, noAnswer);
            case API_ERROR -> new PeerTally(healthy, unhealthy, apiErrors + 1, noAnswer);
            case NO_ANSWER -> new PeerTally(healthy, unhealthy, apiErrors, noAnswer + 1);
        };
    }

    /**
     * Adds another tally.
     *
     * @param other the other tally
     * @return the sum
     */
    public PeerTally plus(PeerTally other) {
        Objects.requireNonNull(other, "other");
        return new PeerTally(healthy + other.healthy, unhealthy + other.unhealthy, apiErrors + other.apiErrors,
                noAnswer + other.noAnswer);
    }

    /**
     * The number of peers asked.
     *
     * @return the sum of all counts
     */
    public int total() {
        return healthy + unhealthy + apiErrors + noAnswer;
    }
}
