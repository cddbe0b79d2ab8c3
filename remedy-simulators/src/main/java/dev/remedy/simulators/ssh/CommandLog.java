package dev.remedy.simulators.ssh;

import java.util.ArrayDeque;
import java.util.List;

/** The latest command lines of every session, oldest first, up to a limit. Thread-safe. */
final class CommandLog {

    private final int limit;
    private final ArrayDeque<String> latest = new ArrayDeque<>();

    CommandLog(int limit) {
        this.limit = limit;
    }

    synchronized void add(String command) {
        if (latest.size() == limit) {
            latest.pollFirst();
        }
        latest.addLast(command);
    }

    synchronized List<String> entries() {
        return List.copyOf(latest);
    }
}
