package dev.remedy.core.rules;

/** What one peer answered when asked about the asking node's health. */
public enum PeerAnswer {
    /** The peer reads the API server and sees no remediation for the node. */
    HEALTHY,
    /** The peer reads the API server and sees a remediation for the node. */
    UNHEALTHY,
    /** The peer answered but cannot reach the API server itself. */
    API_ERROR,
    /** The peer could not be reached or did not answer in time. */
    NO_ANSWER
}
