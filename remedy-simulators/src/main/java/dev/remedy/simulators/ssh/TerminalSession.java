package dev.remedy.simulators.ssh;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.sshd.common.io.IoInputStream;
import org.apache.sshd.common.io.IoOutputStream;
import org.apache.sshd.common.io.IoReadFuture;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.AsyncCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terminal all simulated devices share, for one shell or exec channel: it reads the channel's bytes as they come,
 * echoes them as a terminal with a PTY would (printable characters as typed, CR LF at the end of a line, backspace
 * erasing), cuts lines at CR, LF or CR LF, runs each through the {@link DeviceCli} and prints the answer with CR LF
 * line ends and the prompt; it pages long listings, reads confirmation answers (and passwords, not echoed), and applies
 * the {@link SshFaults}. An exec channel runs its one command line the same way, without echo, banner, prompt or
 * paging, and exits when it is answered.
 *
 * <p>Event-driven, so sessions cost no thread: input arrives on sshd's I/O threads and delayed answers run on
 * sshd's timer; both work under this object's lock and never block. {@link #destroy} takes no lock (sshd may
 * call it from a thread that holds channel locks).
 */
final class TerminalSession implements AsyncCommand {

    private static final Logger LOG = LoggerFactory.getLogger(TerminalSession.class);
    private static final int READ_SIZE = 1024;
    private static final String CRLF = "\r\n";

    private enum Mode { COMMAND, ANSWER, MORE, HUNG, DONE }

    private final SshDeviceSpec spec;
    private final DeviceCli cli;
    private final SshFaults faults;
    private final CommandLog log;
    private final ScheduledExecutorService timer;
    private final String execCommand;
    private final StringBuilder input = new StringBuilder();
    private final StringBuilder line = new StringBuilder();
    private IoInputStream in;
    private ChannelWriter out;
    private ExitCallback exit;
    private ChannelSession channel;
    private Mode mode = Mode.COMMAND;
    private boolean busy;
    private boolean eof;
    private boolean afterCr;
    private Function<String, Reply> answer;
    private boolean answerEchoed;
    private Reply.Lines listing;
    private int listed;
    private volatile ScheduledFuture<?> delayed;
    private volatile boolean destroyed;

    /**
     * @param execCommand the exec request's command line, or {@code null} for an interactive shell
     */
    TerminalSession(SshDeviceSpec spec, DeviceCli cli, SshFaults faults, CommandLog log,
            ScheduledExecutorService timer, String execCommand) {
        this.spec = spec;
        this.cli = cli;
        this.faults = faults;
        this.log = log;
        this.timer = timer;
        this.execCommand = execCommand;
    }

    @Override
    public void setIoInputStream(IoInputStream in) {
        this.in = in;
    }

    @Override
    public void setIoOutputStream(IoOutputStream out) {
        this.out = new ChannelWriter(out);
    }

    @Override
    public void setIoErrorStream(IoOutputStream err) {
        // the devices write everything to standard output
    }

    @Override
    public void setInputStream(InputStream in) {
        // unused: sshd hands an AsyncCommand the asynchronous streams
    }

    @Override
    public void setOutputStream(OutputStream out) {
        // unused: sshd hands an AsyncCommand the asynchronous streams
    }

    @Override
    public void setErrorStream(OutputStream err) {
        // unused: sshd hands an AsyncCommand the asynchronous streams
    }

    @Override
    public void setExitCallback(ExitCallback exit) {
        this.exit = exit;
    }

    @Override
    public void start(ChannelSession channel, Environment env) {
        synchronized (this) {
            this.channel = channel;
            guarded(() -> {
                if (execCommand != null) {
                    command(execCommand);
                } else {
                    busy = true;
                    later(faults.bannerDelay(), () -> {
                        busy = false;
                        out.write(cli.greeting() + cli.prompt());
                    });
                }
            });
        }
        read();
    }

    @Override
    public void destroy(ChannelSession channel) {
        destroyed = true;
        ScheduledFuture<?> task = delayed;
        if (task != null) {
            task.cancel(false);
        }
    }

    private void read() {
        if (destroyed) {
            return;
        }
        try {
            in.read(new ByteArrayBuffer(READ_SIZE)).addListener(this::received);
        } catch (RuntimeException e) {
            LOG.debug("simulated device stopped reading: {}", e.toString());
        }
    }

    private void received(IoReadFuture future) {
        boolean open = future.getException() == null;
        synchronized (this) {
            guarded(() -> {
                if (open) {
                    Buffer buffer = future.getBuffer();
                    while (buffer.available() > 0) {
                        input.append((char) (buffer.getByte() & 0xff));
                    }
                } else {
                    eof = true;
                }
            });
        }
        if (open) {
            read();
        }
    }

    /** Runs {@code action}, then handles the input it left; on a bug, logs it and drops the connection. */
    private void guarded(Runnable action) {
        if (mode == Mode.DONE || destroyed) {
            return;
        }
        try {
            action.run();
            drain();
        } catch (RuntimeException e) {
            LOG.warn("simulated device failed; dropping the connection", e);
            mode = Mode.DONE;
            channel.getSession().close(true);
        }
    }

    /** Runs {@code action} now, or after {@code delay} on sshd's timer. */
    private void later(Duration delay, Runnable action) {
        if (delay.isZero()) {
            action.run();
            return;
        }
        delayed = timer.schedule(() -> {
            synchronized (this) {
                guarded(action);
            }
        }, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void drain() {
        int next = 0;
        while (next < input.length() && !busy && (mode == Mode.COMMAND || mode == Mode.ANSWER || mode == Mode.MORE)) {
            key(input.charAt(next++));
        }
        input.delete(0, mode == Mode.HUNG || mode == Mode.DONE ? input.length() : next);
        if (eof && input.length() == 0 && !busy && mode != Mode.HUNG && mode != Mode.DONE) {
            finish();
        }
    }

    private void key(char c) {
        if (afterCr && c == '\n') {
            afterCr = false;
            return;
        }
        afterCr = c == '\r';
        if (mode == Mode.MORE) {
            more(c);
        } else if (c == '\r' || c == '\n') {
            echo(CRLF);
            String text = line.toString();
            line.setLength(0);
            if (mode == Mode.ANSWER) {
                mode = Mode.COMMAND;
                respond(answer.apply(text));
            } else {
                command(text);
            }
        } else if (c == '\b' || c == 0x7f) {
            if (line.length() > 0) {
                line.setLength(line.length() - 1);
                if (mode != Mode.ANSWER || answerEchoed) {
                    echo("\b \b");
                }
            }
        } else if (c >= ' ' && c < 0x7f) {
            line.append(c);
            if (mode != Mode.ANSWER || answerEchoed) {
                echo(String.valueOf(c));
            }
        }
    }

    private void command(String text) {
        String command = text.strip();
        if (command.isEmpty()) {
            done();
            return;
        }
        log.add(command);
        if (faults.hangs(command)) {
            mode = Mode.HUNG;
            return;
        }
        Optional<String> error = faults.errorFor(command).or(() -> faults.echoCredentials()
                ? Optional.of(spec.device().error(withLogin(command))) : Optional.empty());
        busy = true;
        later(faults.replyDelay(), () -> {
            busy = false;
            respond(error.map(reply -> Reply.lines(reply.split("\r?\n", -1))).orElseGet(() -> cli.execute(command)));
        });
    }

    /** {@code command} and the session's login, as careless firmware quotes them in an error. */
    private String withLogin(String command) {
        String user = channel.getSession().getUsername();
        String password = spec.users().get(user);
        return "'" + command + "' refused for user " + user + (password == null ? " (key login)"
                : " with password " + password);
    }

    private void respond(Reply reply) {
        if (reply instanceof Reply.Lines lines) {
            if (execCommand == null && lines.pageLength() > 0 && lines.lines().size() > lines.pageLength()) {
                listing = lines;
                listed = 0;
                page();
            } else {
                print(lines.lines());
                done();
            }
        } else if (reply instanceof Reply.Ask ask) {
            out.write(ask.question());
            answer = ask.answer();
            answerEchoed = ask.echo();
            mode = Mode.ANSWER;
        } else if (reply instanceof Reply.Close close) {
            print(close.lines());
            finish();
        } else if (reply instanceof Reply.Drop drop) {
            mode = Mode.DONE;
            out.whenFlushed(() -> {
                drop.action().run();
                channel.getSession().close(true);
            });
        }
    }

    private void page() {
        int end = Math.min(listed + listing.pageLength(), listing.lines().size());
        print(listing.lines().subList(listed, end));
        listed = end;
        if (listed < listing.lines().size()) {
            out.write(listing.more());
            mode = Mode.MORE;
        } else {
            listing = null;
            done();
        }
    }

    /** A key at {@code --More--}: {@code q} ends the listing, any other key shows the next page. */
    private void more(char c) {
        out.write("\r" + " ".repeat(listing.more().length()) + "\r");
        if (c == 'q' || c == 'Q') {
            listing = null;
            done();
        } else {
            page();
        }
    }

    /** A command is answered: the prompt, or the end of an exec request. */
    private void done() {
        mode = Mode.COMMAND;
        if (execCommand != null) {
            finish();
        } else {
            out.write(cli.prompt());
        }
    }

    private void finish() {
        mode = Mode.DONE;
        out.whenFlushed(() -> exit.onExit(0));
    }

    private void print(List<String> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l).append(CRLF));
        out.write(text.toString());
    }

    private void echo(String text) {
        if (execCommand == null) {
            out.write(text);
        }
    }

    @Override
    public String toString() {
        return "TerminalSession[" + (execCommand == null ? "shell" : "exec") + ", " + mode + "]";
    }
}
