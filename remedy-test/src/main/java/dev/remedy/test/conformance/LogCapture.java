package dev.remedy.test.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Captures every {@link System.Logger} / {@code java.util.logging} record at every level while installed on the
 * root logger, as text: the formatted message, the raw message, its parameters and the thrown chain.
 */
final class LogCapture extends Handler {

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Formatter formatter = new SimpleFormatter();
    private final Logger root = Logger.getLogger("");
    private final Level savedLevel;

    private LogCapture() {
        savedLevel = root.getLevel();
        setLevel(Level.ALL);
        root.setLevel(Level.ALL);
        root.addHandler(this);
    }

    static LogCapture start() {
        return new LogCapture();
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

    List<String> lines() {
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
