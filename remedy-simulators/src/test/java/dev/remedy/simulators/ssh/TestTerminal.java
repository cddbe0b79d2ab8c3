package dev.remedy.simulators.ssh;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.channel.ChannelShell;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;

/**
 * An interactive shell on the simulator, read like a screen: {@link #expect} waits (bounded) until the output
 * shows a text and consumes the output up to it.
 */
final class TestTerminal implements AutoCloseable {

    private final ClientSession session;
    private final ChannelShell channel;
    private final Screen screen;

    private TestTerminal(ClientSession session, ChannelShell channel, Screen screen) {
        this.session = session;
        this.channel = channel;
        this.screen = screen;
    }

    static TestTerminal open(ClientSession session, boolean pty) throws IOException {
        ChannelShell channel = session.createShellChannel();
        channel.setUsePty(pty);
        Screen screen = new Screen();
        channel.setOut(screen);
        channel.setErr(screen);
        channel.open().verify(TestSsh.TIMEOUT);
        return new TestTerminal(session, channel, screen);
    }

    ClientSession session() {
        return session;
    }

    /** Sends bytes as typed, without a line end. */
    TestTerminal send(String text) throws IOException {
        OutputStream in = channel.getInvertedIn();
        in.write(text.getBytes(StandardCharsets.US_ASCII));
        in.flush();
        return this;
    }

    /** Waits up to {@link TestSsh#TIMEOUT} for {@code text}; returns the output up to and including it. */
    String expect(String text) {
        return expect(text, TestSsh.TIMEOUT);
    }

    /** Waits up to {@code timeout} for {@code text}; returns the output up to and including it. */
    String expect(String text, Duration timeout) {
        return screen.expect(text, timeout);
    }

    /**
     * Sends a command ended with CR and returns what the device printed after echoing it, up to and including
     * the next {@code prompt}.
     */
    String command(String line, String prompt) throws IOException {
        send(line + "\r");
        expect(line + "\r\n");
        return expect(prompt);
    }

    /** Whether the device closed the shell within the timeout. */
    boolean closedWithin(Duration timeout) {
        return !channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), timeout).contains(ClientChannelEvent.TIMEOUT);
    }

    @Override
    public void close() throws IOException {
        channel.close(true);
        session.close(true);
    }

    /** What the device printed, consumed by {@link #expect}. */
    private static final class Screen extends OutputStream {

        private final StringBuilder text = new StringBuilder();

        @Override
        public synchronized void write(int b) {
            text.append((char) (b & 0xff));
            notifyAll();
        }

        @Override
        public synchronized void write(byte[] bytes, int off, int len) {
            for (int i = off; i < off + len; i++) {
                text.append((char) (bytes[i] & 0xff));
            }
            notifyAll();
        }

        synchronized String expect(String wanted, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            int at;
            while ((at = text.indexOf(wanted)) < 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the device did not print '" + printable(wanted) + "' within "
                            + timeout.toMillis() + " ms; it printed '" + printable(text.toString()) + "'");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
            String seen = text.substring(0, at + wanted.length());
            text.delete(0, at + wanted.length());
            return seen;
        }

        private static String printable(String s) {
            return s.replace("\r", "\\r").replace("\n", "\\n");
        }
    }
}
