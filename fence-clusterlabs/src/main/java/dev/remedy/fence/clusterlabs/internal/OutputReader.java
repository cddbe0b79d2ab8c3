package dev.remedy.fence.clusterlabs.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Reads one output stream of an agent process on a thread of its own, so that the agent never blocks on a full
 * pipe: keeps at most {@code cap} bytes and reads (and drops) the rest to the end, and splits what it keeps into
 * lines of at most {@value #LINE_CAP} characters for the caller to take on its own thread.
 */
final class OutputReader {

    /** The longest line kept; the rest of a longer line is dropped. */
    static final int LINE_CAP = 1000;

    private final InputStream in;
    private final int cap;
    private final String label;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final Queue<String> lines = new ConcurrentLinkedQueue<>();
    private final List<String> allLines = new ArrayList<>();
    private final Thread thread;
    private boolean truncated;

    private OutputReader(InputStream in, int cap, String label, String threadName) {
        this.in = in;
        this.cap = cap;
        this.label = label;
        this.thread = new Thread(this::read, threadName);
        this.thread.setDaemon(true);
    }

    /** Starts reading {@code in}, keeping at most {@code cap} bytes; {@code label} names the stream in a notice. */
    static OutputReader start(InputStream in, int cap, String label, String threadName) {
        OutputReader reader = new OutputReader(in, cap, label, threadName);
        reader.thread.start();
        return reader;
    }

    private void read() {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                keep(buffer, n);
            }
        } catch (IOException e) {
            // the stream closed under the reader (the process was killed): what was read is kept
        }
        synchronized (this) {
            endLine();
        }
    }

    private synchronized void keep(byte[] buffer, int n) {
        for (int i = 0; i < n; i++) {
            if (kept.size() >= cap) {
                if (!truncated) {
                    truncated = true;
                    endLine();
                    add("(" + label + " passed " + cap / 1024 + " KiB: the rest is dropped)");
                }
                return;
            }
            byte b = buffer[i];
            kept.write(b);
            if (b == '\n') {
                endLine();
            } else if (line.size() < LINE_CAP) {
                line.write(b);
            }
        }
    }

    private void endLine() {
        if (line.size() > 0) {
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            add(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
        }
    }

    private void add(String text) {
        lines.add(text);
        allLines.add(text);
    }

    /** Hands every line read since the last call to {@code consumer}, on the calling thread. */
    void drainTo(Consumer<String> consumer) {
        String next;
        while ((next = lines.poll()) != null) {
            consumer.accept(next);
        }
    }

    /** Waits at most {@code wait} for the end of the stream. */
    void await(Duration wait) throws InterruptedException {
        thread.join(Math.max(1, wait.toMillis()));
    }

    /** What was kept, as UTF-8 text. */
    synchronized String text() {
        return kept.toString(StandardCharsets.UTF_8);
    }

    /** What was kept, as bytes. */
    synchronized byte[] bytes() {
        return kept.toByteArray();
    }

    /** Every line kept so far. */
    synchronized List<String> lines() {
        return List.copyOf(allLines);
    }

    /** Whether the stream passed the cap. */
    synchronized boolean truncated() {
        return truncated;
    }
}
