package dev.remedy.simulators.ssh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.common.io.IoOutputStream;
import org.apache.sshd.common.io.IoWriteFuture;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * Writes text, in order, to a channel's asynchronous output, which takes one write at a time: text written while
 * a write is under way waits and leaves in the next one. Never blocks, and calls sshd without holding its own
 * lock. Once the channel fails (closed), further text is dropped. Thread-safe.
 */
final class ChannelWriter {

    private final IoOutputStream out;
    private final StringBuilder queued = new StringBuilder();
    private final List<Runnable> whenFlushed = new ArrayList<>();
    private boolean writing;
    private boolean failed;

    ChannelWriter(IoOutputStream out) {
        this.out = out;
    }

    /** Queues {@code text} (ASCII) for the channel. */
    void write(String text) {
        String batch;
        synchronized (this) {
            if (failed || text.isEmpty()) {
                return;
            }
            queued.append(text);
            if (writing) {
                return;
            }
            writing = true;
            batch = take();
        }
        send(batch);
    }

    /** Runs {@code action} once everything queued so far is written (or failed); at once if nothing is queued. */
    void whenFlushed(Runnable action) {
        synchronized (this) {
            if (writing) {
                whenFlushed.add(action);
                return;
            }
        }
        action.run();
    }

    private void send(String batch) {
        try {
            out.writeBuffer(new ByteArrayBuffer(batch.getBytes(StandardCharsets.US_ASCII))).addListener(this::written);
        } catch (IOException | RuntimeException e) {
            finished(true);
        }
    }

    private void written(IoWriteFuture future) {
        finished(!future.isWritten());
    }

    private void finished(boolean failure) {
        String batch = null;
        List<Runnable> flushed = List.of();
        synchronized (this) {
            if (failure) {
                failed = true;
                queued.setLength(0);
            }
            if (queued.length() > 0) {
                batch = take();
            } else {
                writing = false;
                flushed = List.copyOf(whenFlushed);
                whenFlushed.clear();
            }
        }
        if (batch != null) {
            send(batch);
        } else {
            flushed.forEach(Runnable::run);
        }
    }

    private String take() {
        String batch = queued.toString();
        queued.setLength(0);
        return batch;
    }
}
