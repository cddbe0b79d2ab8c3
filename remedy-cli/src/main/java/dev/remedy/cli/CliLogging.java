package dev.remedy.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The logging of one run of the command, on java.util.logging (where SLF4J goes, through slf4j-jdk14): one line per
 * record on stderr. Every logger logs its warnings and errors; {@code --verbose} adds the debug lines of remedy's own
 * loggers ({@value #OWN}), never those of the JDK or a library: the JDK's HTTP client and its security events log
 * every buffer of a TLS exchange and every certificate parsed when their loggers are at debug level.
 */
final class CliLogging implements AutoCloseable {

    /** fabric8 warns once that NodeFence's version is v1alpha1: remedy owns that resource, the warning is noise. */
    private static final Logger UNSTABLE_VERSION_WARNINGS =
            Logger.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");

    /** The parent of remedy's own loggers, the only ones {@code --verbose} turns to debug. */
    static final String OWN = "dev.remedy";

    /** Held here: java.util.logging forgets the level of a logger nobody references. */
    private static final Logger REMEDY = Logger.getLogger(OWN);

    private final Logger root = Logger.getLogger("");
    private final List<Handler> previousHandlers = List.of(root.getHandlers());
    private final Level previousRoot = root.getLevel();
    private final Level previousRemedy = REMEDY.getLevel();
    private final Level previousUnstable = UNSTABLE_VERSION_WARNINGS.getLevel();

    private CliLogging() {
    }

    /**
     * Sends all logging to {@code err} (and nowhere else) until {@link #close()}.
     *
     * @param verbose whether {@code --verbose} was given
     */
    static CliLogging install(boolean verbose, PrintWriter err) {
        CliLogging logging = new CliLogging();
        logging.previousHandlers.forEach(logging.root::removeHandler);
        Handler lines = new LineHandler(err);
        lines.setLevel(verbose ? Level.FINE : Level.WARNING);
        logging.root.addHandler(lines);
        logging.root.setLevel(Level.WARNING);
        REMEDY.setLevel(verbose ? Level.FINE : Level.WARNING);
        UNSTABLE_VERSION_WARNINGS.setLevel(verbose ? Level.WARNING : Level.SEVERE);
        return logging;
    }

    /** Puts back the handlers and levels found at {@link #install}. */
    @Override
    public void close() {
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        previousHandlers.forEach(root::addHandler);
        root.setLevel(previousRoot);
        REMEDY.setLevel(previousRemedy);
        UNSTABLE_VERSION_WARNINGS.setLevel(previousUnstable);
    }

    /** Writes each record as {@code remedy: LEVEL: message}, FINE and below as {@code debug} (SLF4J's name). */
    private static final class LineHandler extends Handler {

        private final PrintWriter err;

        LineHandler(PrintWriter err) {
            this.err = err;
            setFormatter(new Formatter() {
                @Override
                public String format(LogRecord entry) {
                    String level = entry.getLevel().intValue() < Level.INFO.intValue() ? "debug"
                            : entry.getLevel().getName().toLowerCase(Locale.ROOT);
                    return "remedy: " + level + ": " + formatMessage(entry) + System.lineSeparator();
                }
            });
        }

        @Override
        public void publish(LogRecord entry) {
            if (isLoggable(entry)) {
                err.print(getFormatter().format(entry));
                err.flush();
            }
        }

        @Override
        public void flush() {
            err.flush();
        }

        @Override
        public void close() {
            flush();
        }
    }
}
