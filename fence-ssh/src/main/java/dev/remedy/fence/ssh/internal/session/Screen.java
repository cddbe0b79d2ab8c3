package dev.remedy.fence.ssh.internal.session;

import java.io.OutputStream;
import java.util.function.Predicate;

/**
 * What the device wrote and nobody has read yet, as jsch's session thread delivers it. Bytes are taken as
 * ISO-8859-1 (one char each); {@code \r\n} becomes {@code \n}, a lone {@code \r} (a pager erasing its line),
 * backspaces and NULs are dropped. Waits are bounded by a deadline on the {@link System#nanoTime()} clock.
 */
final class Screen extends OutputStream {

    /** More unread text than this means a runaway device: the oldest part is dropped. */
    private static final int LIMIT = 1 << 20;

    private final StringBuilder unread = new StringBuilder();
    private boolean closed;
    private boolean carriageReturn;

    @Override
    public synchronized void write(int b) {
        append((char) (b & 0xff));
        notifyAll();
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            append((char) (bytes[i] & 0xff));
        }
        if (unread.length() > LIMIT) {
            unread.delete(0, unread.length() - LIMIT);
        }
        notifyAll();
    }

    private void append(char c) {
        if (c == '\r') {
            carriageReturn = true;
            return;
        }
        if (carriageReturn && c != '\n') {
            // a lone CR: the line is being redrawn, so what was on it goes
            unread.setLength(unread.lastIndexOf("\n") + 1);
        }
        carriageReturn = false;
        if (c == '\b' || c == 0) {
            return;
        }
        unread.append(c);
    }

    /** The session ended: nothing more will come. */
    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** Whether the session ended. */
    synchronized boolean closed() {
        return closed;
    }

    /**
     * Waits until the last (unfinished) line of the unread text passes {@code lastLine}, then takes all the unread
     * text.
     *
     * @return the text, or {@code null} if the deadline passed or the session ended first (the text stays unread)
     */
    synchronized String take(Predicate<String> lastLine, long deadlineNanos) throws InterruptedException {
        while (true) {
            String line = unread.substring(unread.lastIndexOf("\n") + 1);
            if (!line.isEmpty() && lastLine.test(line)) {
                String text = unread.toString();
                unread.setLength(0);
                return text;
            }
            long left = deadlineNanos - System.nanoTime();
            if (closed || left <= 0) {
                return null;
            }
            wait(Math.max(1, left / 1_000_000), 0);
        }
    }

    /** The last line of the unread text, for messages (at most 120 characters). */
    synchronized String lastLine() {
        String text = unread.toString().strip();
        String line = text.substring(text.lastIndexOf('\n') + 1);
        return line.length() > 120 ? line.substring(line.length() - 120) : line;
    }

    /** Waits until the session ends or the deadline passes; returns whether it ended. */
    synchronized boolean awaitClosed(long deadlineNanos) throws InterruptedException {
        while (!closed) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000), 0);
        }
        return true;
    }
}
