package dev.remedy.cli.fenceagents;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * stdout and stderr of one call of the agent server, framed on one connection as the launcher reads them: each
 * line as {@code out TEXT} or {@code err TEXT}, a last line without its newline as {@code out-TEXT}. Lines go out as
 * soon as they end, so the progress of a long action reaches Pacemaker's log while it runs. A client that went away
 * (killed at Pacemaker's timeout) does not stop the action: what it can no longer read is dropped.
 */
final class FramedOutput {

    private final OutputStream connection;
    private boolean broken;

    FramedOutput(OutputStream connection) {
        this.connection = connection;
    }

    /** A writer whose lines are framed with {@code stream} ({@code out} or {@code err}). */
    Writer stream(String stream) {
        return new Writer() {
            private final StringBuilder line = new StringBuilder();

            @Override
            public void write(char[] chars, int offset, int length) {
                synchronized (FramedOutput.this) {
                    for (int i = offset; i < offset + length; i++) {
                        if (chars[i] == '\n') {
                            send(stream + " " + line + "\n");
                            line.setLength(0);
                        } else {
                            line.append(chars[i]);
                        }
                    }
                }
            }

            @Override
            public void flush() {
                synchronized (FramedOutput.this) {
                    flushConnection();
                }
            }

            @Override
            public void close() {
                synchronized (FramedOutput.this) {
                    if (line.length() > 0) {
                        send(stream + "-" + line + "\n");
                        line.setLength(0);
                    }
                    flushConnection();
                }
            }
        };
    }

    /** The last frame: the call's exit code. */
    synchronized void exit(int code) {
        send("exit " + code + "\n");
        flushConnection();
    }

    private void send(String frame) {
        if (!broken) {
            try {
                connection.write(frame.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                broken = true;
            }
        }
    }

    private void flushConnection() {
        if (!broken) {
            try {
                connection.flush();
            } catch (IOException e) {
                broken = true;
            }
        }
    }
}
