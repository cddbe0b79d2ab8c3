package dev.remedy.fence.redfish;

import dev.remedy.fence.redfish.internal.client.TlsTrust;
import dev.remedy.spi.FenceAgent;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side a provider's agents share: one {@link HttpClient} per TLS trust, all on one small fixed pool of
 * daemon threads (created at first use), so hundreds of agents in flight need no more threads.
 */
final class RedfishTransport {

    private static final Logger LOG = LoggerFactory.getLogger(RedfishTransport.class);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final int POOL = 2;

    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();
    private volatile ExecutorService pool;

    /** An agent for {@code settings} powering {@code target}. */
    FenceAgent agent(RedfishSettings settings, RedfishTarget target) {
        return new RedfishFenceAgent(clients.computeIfAbsent(settings.trust(), this::client), pool(), settings,
                target);
    }

    private HttpClient client(String trust) {
        int colon = trust.indexOf(':');
        SSLContext context = switch (colon < 0 ? trust : trust.substring(0, colon)) {
            case "ca" -> TlsTrust.caBundle(Path.of(trust.substring(colon + 1)));
            case "pin" -> TlsTrust.pinned(trust.substring(colon + 1));
            case "insecure" -> TlsTrust.insecure();
            default -> TlsTrust.system();
        };
        return HttpClient.newBuilder().sslContext(context).executor(pool()).connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    }

    private ExecutorService pool() {
        ExecutorService current = pool;
        if (current == null) {
            synchronized (this) {
                current = pool;
                if (current == null) {
                    warnAboutThreadPerResponse();
                    current = Executors.newFixedThreadPool(POOL, runnable -> {
                        Thread thread = new Thread(runnable, "remedy-redfish-" + THREADS.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    });
                    pool = current;
                }
            }
        }
        return current;
    }

    /**
     * The JDK's HttpClient hands every response of {@code sendAsync} to the common fork-join pool; with a common
     * parallelism below 2 (machines with 2 CPUs or fewer) that pool starts a new thread for each one, which costs
     * threads and time when many agents run at once. Said once per provider, with the fix.
     */
    private static void warnAboutThreadPerResponse() {
        if (ForkJoinPool.getCommonPoolParallelism() < 2) {
            LOG.info("the JDK HTTP client starts a thread for every Redfish response on this machine (common fork-join"
                    + " parallelism {}); for many agents at once, run the JVM with"
                    + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=2",
                    ForkJoinPool.getCommonPoolParallelism());
        }
    }
}
