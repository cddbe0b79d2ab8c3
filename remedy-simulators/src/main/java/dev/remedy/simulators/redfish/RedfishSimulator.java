package dev.remedy.simulators.redfish;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.remedy.simulators.ScheduledPowerTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Redfish service (a BMC or chassis manager) on a loopback port, for unit tests, demos and benchmarks of
 * Redfish clients: ComputerSystems with {@code ComputerSystem.Reset}, the SessionService, optional rack PDUs with
 * {@code Outlet.PowerControl}, asynchronous task monitors, and injected faults. Written from the DMTF Redfish
 * specification (DSP0266) and schemas, independently of any client in this project.
 *
 * <p>Binds {@code 127.0.0.1} on a free port; serves on {@link RedfishSpec#threads()} worker threads (daemons).
 * Read counters and set behaviour from any thread. Close it to free the port and the threads.
 *
 * <pre>{@code
 * try (RedfishSimulator sim = RedfishSimulator.start(RedfishSpec.ofDefaults())) {
 *     URI root = sim.baseUri();                       // http://127.0.0.1:PORT
 *     sim.system("node-1").powerTarget().power();     // ON
 * }
 * }</pre>
 */
public final class RedfishSimulator implements AutoCloseable {

    /** The prefix of the worker threads' names. */
    public static final String THREAD_NAME = "remedy-redfish-simulator";
    /** The JDK HTTP server's switch for TCP_NODELAY on accepted connections. */
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";

    private static final int BACKLOG = 1024;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final RedfishSpec spec;
    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, SimulatedSystem> systems;
    private final Map<String, Map<Integer, SimulatedOutlet>> outlets;
    private final Sessions sessions;
    private final RedfishFaults faults;
    private final RequestLog log;
    private final SimulatorCertificate certificate;
    private final URI baseUri;

    private RedfishSimulator(RedfishSpec spec, HttpServer server, ExecutorService executor,
            Map<String, SimulatedSystem> systems, Map<String, Map<Integer, SimulatedOutlet>> outlets,
            Sessions sessions, RedfishFaults faults, RequestLog log, SimulatorCertificate certificate) {
        this.spec = spec;
        this.server = server;
        this.executor = executor;
        this.systems = systems;
        this.outlets = outlets;
        this.sessions = sessions;
        this.faults = faults;
        this.log = log;
        this.certificate = certificate;
        this.baseUri = URI.create((certificate == null ? "http" : "https") + "://127.0.0.1:"
                + server.getAddress().getPort());
    }

    /**
     * Starts a simulator serving {@code spec}.
     *
     * @throws UncheckedIOException if no loopback port can be bound
     * @throws IllegalStateException if TLS was asked for and the JDK cannot make the certificate
     */
    public static RedfishSimulator start(RedfishSpec spec) {
        Objects.requireNonNull(spec, "spec");
        Map<String, SimulatedSystem> systems = new LinkedHashMap<>();
        for (String id : spec.systems()) {
            systems.put(id, new SimulatedSystem(id, new ScheduledPowerTarget(spec.initialPower(), spec.nanoClock())));
        }
        Map<String, RedfishPdu> pdus = new LinkedHashMap<>();
        Map<String, Map<Integer, SimulatedOutlet>> outlets = new LinkedHashMap<>();
        for (RedfishPdu pdu : spec.pdus()) {
            pdus.put(pdu.id(), pdu);
            Map<Integer, SimulatedOutlet> numbered = new LinkedHashMap<>();
            for (int n = 1; n <= pdu.outlets(); n++) {
                numbered.put(n, new SimulatedOutlet(pdu.id(), n,
                        new ScheduledPowerTarget(spec.initialPower(), spec.nanoClock())));
            }
            outlets.put(pdu.id(), Collections.unmodifiableMap(numbered));
        }
        Sessions sessions = new Sessions(spec.maxSessions());
        RedfishFaults faults = new RedfishFaults(sessions);
        RequestLog log = new RequestLog(spec.requestLogLimit());
        UUID uuid = UUID.nameUUIDFromBytes(("remedy-redfish-service:" + INSTANCES.incrementAndGet())
                .getBytes(StandardCharsets.UTF_8));
        RedfishService service = new RedfishService(spec, systems, pdus, outlets, sessions,
                new Tasks(spec.nanoClock()), faults, uuid);
        SimulatorCertificate certificate = spec.tls() ? SimulatorCertificate.generate(spec.subjectAltNames()) : null;
        HttpServer server = bind(certificate);
        ExecutorService executor = Executors.newFixedThreadPool(spec.threads(), daemons());
        server.setExecutor(executor);
        server.createContext("/", new RedfishHttpHandler(service, faults, log));
        server.start();
        return new RedfishSimulator(spec, server, executor, systems, outlets, sessions, faults, log, certificate);
    }

    private static HttpServer bind(SimulatorCertificate certificate) {
        // The JDK server writes headers and body separately; with Nagle on, a client's delayed ACK holds every
        // response with a body for about 40 ms. The property is read once, when the first server is created.
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try {
            if (certificate == null) {
                return HttpServer.create(address, BACKLOG);
            }
            HttpsServer https = HttpsServer.create(address, BACKLOG);
            https.setHttpsConfigurator(new HttpsConfigurator(certificate.serverContext()));
            return https;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the Redfish simulator to a free port on 127.0.0.1: " + e, e);
        }
    }

    private static ThreadFactory daemons() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, THREAD_NAME + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** How the simulator was set up. */
    public RedfishSpec spec() {
        return spec;
    }

    /** Scheme, host and port, without a path: {@code http://127.0.0.1:PORT} (or {@code https://}). */
    public URI baseUri() {
        return baseUri;
    }

    /** The service root, {@code <baseUri>/redfish/v1/}. */
    public URI serviceRoot() {
        return baseUri.resolve(Resources.ROOT);
    }

    /** The TCP port. */
    public int port() {
        return baseUri.getPort();
    }

    /**
     * The system with this id.
     *
     * @throws IllegalArgumentException if the spec has no such system
     */
    public SimulatedSystem system(String id) {
        SimulatedSystem system = systems.get(id);
        if (system == null) {
            throw new IllegalArgumentException("no system '" + id + "' in this simulator; it has "
                    + (systems.size() > 10 ? systems.size() + " systems" : systems.keySet().toString()));
        }
        return system;
    }

    /** Every system, in collection order. */
    public List<SimulatedSystem> systems() {
        return List.copyOf(systems.values());
    }

    /**
     * Outlet {@code number} (1-based) of PDU {@code pdu}.
     *
     * @throws IllegalArgumentException if there is no such PDU or outlet
     */
    public SimulatedOutlet outlet(String pdu, int number) {
        Map<Integer, SimulatedOutlet> numbered = outlets.get(pdu);
        if (numbered == null) {
            throw new IllegalArgumentException("no PDU '" + pdu + "' in this simulator; it has " + outlets.keySet());
        }
        SimulatedOutlet outlet = numbered.get(number);
        if (outlet == null) {
            throw new IllegalArgumentException("PDU '" + pdu + "' has outlets 1 to " + numbered.size() + ", not "
                    + number);
        }
        return outlet;
    }

    /** Every outlet of PDU {@code pdu}, by number; empty if there is no such PDU. */
    public List<SimulatedOutlet> outlets(String pdu) {
        return List.copyOf(outlets.getOrDefault(pdu, Map.of()).values());
    }

    /** The faults to inject. */
    public RedfishFaults faults() {
        return faults;
    }

    /** Sessions open now (created, not deleted, not expired). */
    public int activeSessions() {
        return sessions.active();
    }

    /** Sessions created since start. */
    public long sessionsCreated() {
        return sessions.created();
    }

    /**
     * The {@code X-Auth-Token} of the latest session created, even if it was since deleted or expired: for a test
     * that checks a client never prints it.
     */
    public Optional<String> lastSessionToken() {
        return sessions.lastToken();
    }

    /** Requests received since start, including those answered with an injected fault. */
    public long requests() {
        return log.count();
    }

    /** The latest requests, oldest first (at most {@link RedfishSpec#requestLogLimit()}). */
    public List<RedfishRequest> requestLog() {
        return log.entries();
    }

    /** Forgets the request log (the {@link #requests()} counter keeps counting). */
    public void clearRequestLog() {
        log.clear();
    }

    /** Whether the simulator serves HTTPS. */
    public boolean tls() {
        return certificate != null;
    }

    /**
     * The self-signed certificate of a TLS simulator, with a trusting {@link javax.net.ssl.SSLContext}.
     *
     * @throws IllegalStateException if the simulator serves plain HTTP
     */
    public SimulatorCertificate certificate() {
        if (certificate == null) {
            throw new IllegalStateException("this Redfish simulator serves plain HTTP and has no certificate; build "
                    + "its spec with tls(true)");
        }
        return certificate;
    }

    /** Stops serving at once and ends the worker threads. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "RedfishSimulator[" + baseUri + ", " + systems.size() + " systems, " + outlets.size() + " PDUs, "
                + "sessions=" + activeSessions() + ", requests=" + requests() + "]";
    }
}
