package dev.remedy.core.flow;

import java.util.Arrays;

/** The states of a fence flow, as the Node remedy design names them. {@link #code()} is the persisted form. */
public enum FenceState {
    /** Decided; held for the configured period, then isolated. */
    NEW("new"),
    /** Isolated; power management runs unless the node came back Ready. */
    RUNNING("running"),
    /** Fenced (or recovered by itself); waiting for the node to be Ready, then recovery. */
    DONE("done"),
    /** Finished: the node is back (or the flow was cancelled or closed by an admin). Terminal. */
    FINAL("final"),
    /** A step failed beyond its retries; the flow restarts, up to the restart limit, then stays here. */
    ERROR("error");

    private final String code;

    FenceState(String code) {
        this.code = code;
    }

    /** The stable persisted name. */
    public String code() {
        return code;
    }

    /** The state with this code. */
    public static FenceState fromCode(String code) {
        return Arrays.stream(values()).filter(s -> s.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fence state '" + code + "'"));
    }
}
