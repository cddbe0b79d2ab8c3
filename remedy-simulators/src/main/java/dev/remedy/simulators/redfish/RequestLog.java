package dev.remedy.simulators.redfish;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Counts every request and keeps the latest ones, up to a limit. Thread-safe. */
final class RequestLog {

    private final int limit;
    private final AtomicLong count = new AtomicLong();
    private final ArrayDeque<RedfishRequest> latest = new ArrayDeque<>();

    RequestLog(int limit) {
        this.limit = limit;
    }

    void add(RedfishRequest request) {
        count.incrementAndGet();
        if (limit == 0) {
            return;
        }
        synchronized (latest) {
            if (latest.size() == limit) {
                latest.pollFirst();
            }
            latest.addLast(request);
        }
    }

    long count() {
        return count.get();
    }

    List<RedfishRequest> entries() {
        synchronized (latest) {
            return List.copyOf(latest);
        }
    }

    void clear() {
        synchronized (latest) {
            latest.clear();
        }
    }
}
