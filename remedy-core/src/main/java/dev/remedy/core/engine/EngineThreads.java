package dev.remedy.core.engine;

import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The threads of the pool an engine owns: daemons, named, and never dying without a log line. */
final class EngineThreads {

    /** Logs under the engine's name, which is what operators configure. */
    private static final Logger LOG = LoggerFactory.getLogger(FenceEngine.class);

    /** Makes the engine's pool threads. */
    static final ThreadFactory FACTORY = runnable -> {
        Thread thread = Executors.defaultThreadFactory().newThread(runnable);
        thread.setDaemon(true);
        thread.setName("remedy-engine-" + thread.getName());
        thread.setUncaughtExceptionHandler((dead, e) -> LOG.error("engine thread {} died: the operation it ran is "
                + "counted as lost at its deadline and the pool starts a new thread", dead.getName(), e));
        return thread;
    };

    private EngineThreads() {
    }
}
