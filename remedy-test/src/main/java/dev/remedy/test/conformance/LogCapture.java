package dev.remedy.test.conformance;

import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.slf4j.LoggerFactory;

/**
 * Captures every {@code java.util.logging} record at every level while installed on the root logger, as text: the
 * formatted message, the raw message, its parameters and the thrown chain. Agents log through SLF4J, which a test
 * run routes to java.util.logging with {@code org.slf4j:slf4j-jdk14}, and remedy-spi through {@link System.Logger},
 * which goes there unless a {@code LoggerFinder} takes it elsewhere. At start the capture logs a canary line through
 * each facade at its lowest level; {@link #lines()} fails, naming the facade and what to do, if a canary did not
 * arrive, so a search for secrets never passes because the capture saw nothing.
 */
final class LogCapture extends Handler {

    private static final String SLF4J_UNSEEN = "SLF4J log lines do not reach java.util.logging in this test run"
            + " (SLF4J has no provider here, or one other than slf4j-jdk14), so the kit cannot check them for secrets."
            + " The conformance kit reads log lines through java.util.logging; route SLF4J there in your tests: add"
            + " org.slf4j:slf4j-jdk14 at test scope, and no other SLF4J provider.";
    private static final String SYSTEM_LOGGER_UNSEEN = "System.Logger log lines do not reach java.util.logging in"
            + " this test run (a LoggerFinder, such as slf4j-jdk-platform-logging with an SLF4J provider other than"
            + " slf4j-jdk14, takes them elsewhere), so the kit cannot check them for secrets. Remove that LoggerFinder"
            + " from the test class path.";

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final List<String> unseen = new ArrayList<>();
    private final Formatter formatter = new SimpleFormatter();
    private final Logger root = Logger.getLogger("");
    private final Level savedLevel;

    private LogCapture() {
        savedLevel = root.getLevel();
        setLevel(Level.ALL);
        root.setLevel(Level.ALL);
        root.addHandler(this);
    }

    /** Installs a capture and checks, with a canary line through each facade, which facades it sees. */
    static LogCapture start() {
        LogCapture capture = new LogCapture();
        String canary = "remedy-log-canary-" + UUID.randomUUID();
        LoggerFactory.getLogger(LogCapture.class).trace("{} through SLF4J", canary);
        System.getLogger(LogCapture.class.getName()).log(System.Logger.Level.TRACE, canary + " through System.Logger");
        capture.expect(canary + " through SLF4J", SLF4J_UNSEEN);
        capture.expect(canary + " through System.Logger", SYSTEM_LOGGER_UNSEEN);
        return capture;
    }

    private void expect(String canary, String otherwise) {
        synchronized (lines) {
            if (lines.stream().noneMatch(line -> line.contains(canary))) {
                unseen.add(otherwise);
            }
        }
    }

    @Override
    public void publish(LogRecord entry) {
        StringBuilder text = new StringBuilder(entry.getLoggerName() + " " + entry.getLevel() + " ");
        text.append(formatter.formatMessage(entry)).append(" | raw: ").append(entry.getMessage());
        if (entry.getParameters() != null) {
            for (Object parameter : entry.getParameters()) {
                text.append(" | param: ").append(parameter);
            }
        }
        for (Throwable t = entry.getThrown(); t != null; t = t.getCause()) {
            text.append(" | thrown: ").append(t);
        }
        lines.add(text.toString());
    }

    /** The lines captured so far; fails if a facade's canary never arrived, since its lines would be missing too. */
    List<String> lines() {
        if (!unseen.isEmpty()) {
            fail(String.join(" ", unseen));
        }
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        root.removeHandler(this);
        root.setLevel(savedLevel);
    }
}
