package dev.remedy.simulators.pacemaker;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Samples the command lines of a process's descendants (what {@code /proc/<pid>/cmdline} shows to {@code ps}) every
 * few milliseconds on a daemon thread, until closed: how a test sees what argv the fencer's agents and their
 * children were run with. A process shorter-lived than the interval can be missed.
 */
final class ProcessWatch implements AutoCloseable {

    private static final long INTERVAL_MILLIS = 5;

    private final long pid;
    private final Set<String> seen = new LinkedHashSet<>();
    private final Thread thread;

    private ProcessWatch(long pid) {
        this.pid = pid;
        this.thread = new Thread(this::run, "pacemaker-fencer-process-watch");
        thread.setDaemon(true);
    }

    /** Starts sampling the descendants of {@code pid}. */
    static ProcessWatch start(long pid) {
        ProcessWatch watch = new ProcessWatch(pid);
        watch.sample();
        watch.thread.start();
        return watch;
    }

    /** The distinct command lines seen so far, in the order first seen. */
    List<String> commandLines() {
        synchronized (seen) {
            return List.copyOf(new ArrayList<>(seen));
        }
    }

    /** Takes a last sample and stops the thread (waits for it at most a second). */
    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted()) {
            sample();
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample() {
        ProcessHandle.of(pid).ifPresent(parent -> parent.descendants().forEach(child -> child.info().commandLine()
                .ifPresent(line -> {
                    synchronized (seen) {
                        seen.add(line);
                    }
                })));
    }
}
