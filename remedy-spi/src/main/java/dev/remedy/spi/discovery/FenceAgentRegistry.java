package dev.remedy.spi.discovery;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The agent providers available to this process, chosen by type id only.
 *
 * <p>{@link #load(ClassLoader)} reads every {@code META-INF/services/dev.remedy.spi.FenceAgentProvider} entry and
 * keeps a report: loaded providers, failures (class missing, constructor throwing, bad type id, SPI too new,
 * supported actions that contradict the {@link FencingKind}) with their errors, and type ids claimed
 * twice. A duplicated id is unusable: {@link #provider(String)} throws
 * {@link DuplicateAgentException} naming both classes. {@link #of} builds a registry without ServiceLoader.
 *
 * <p>{@link #create} creates agents whose every text masks the configuration's secrets, whatever a device echoes: the
 * engine and the CLI create their agents there.
 *
 * <p>Immutable and thread-safe.
 */
public final class FenceAgentRegistry {

    private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9-]*");
    /** A guard against a service iterator that keeps failing on the same entry. */
    private static final int MAX_ENTRIES = 10_000;

    private final Map<String, FenceAgentProvider> providers;
    private final Map<String, List<String>> duplicates;
    private final List<DiscoveryFailure> failures;

    private FenceAgentRegistry(List<FenceAgentProvider> candidates, List<DiscoveryFailure> loadFailures) {
        List<DiscoveryFailure> failed = new ArrayList<>(loadFailures);
        Map<String, List<FenceAgentProvider>> byType = new TreeMap<>();
        for (FenceAgentProvider candidate : candidates) {
            String problem = check(candidate);
            if (problem != null) {
                failed.add(new DiscoveryFailure(candidate.getClass().getName(), problem,
                        new IllegalStateException(problem)));
            } else {
                byType.computeIfAbsent(candidate.type(), t -> new ArrayList<>()).add(candidate);
            }
        }
        Map<String, FenceAgentProvider> unique = new LinkedHashMap<>();
        Map<String, List<String>> claimedTwice = new TreeMap<>();
        byType.forEach((type, list) -> {
            if (list.size() == 1) {
                unique.put(type, list.get(0));
            } else {
                claimedTwice.put(type, list.stream().map(p -> p.getClass().getName()).collect(Collectors.toList()));
            }
        });
        this.providers = unique;
        this.duplicates = claimedTwice;
        this.failures = List.copyOf(failed);
    }

    /** Loads providers visible to the thread's context class loader (or this class's loader if there is none). */
    public static FenceAgentRegistry load() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return load(context != null ? context : FenceAgentRegistry.class.getClassLoader());
    }

    /** Loads providers with {@link ServiceLoader} from {@code loader}, recording every failure. */
    public static FenceAgentRegistry load(ClassLoader loader) {
        return discover(loader, null);
    }

    /**
     * Loads the providers of agent {@code type} only, as {@link #load(ClassLoader)} would find them: a provider class
     * whose {@link AgentType} names another type is never constructed (nor are its classes loaded past its own), so a
     * one-shot process starts fast. Providers without the annotation are constructed and kept if their type is
     * {@code type}. Failures of the providers it constructs are recorded.
     */
    public static FenceAgentRegistry load(ClassLoader loader, String type) {
        Objects.requireNonNull(type, "type");
        return discover(loader, type);
    }

    /** Loads the providers of type {@code only}, or all of them when it is null. */
    private static FenceAgentRegistry discover(ClassLoader loader, String only) {
        List<FenceAgentProvider> loaded = new ArrayList<>();
        List<DiscoveryFailure> failed = new ArrayList<>();
        Iterator<ServiceLoader.Provider<FenceAgentProvider>> entries =
                ServiceLoader.load(FenceAgentProvider.class, loader).stream().iterator();
        for (int i = 0; i < MAX_ENTRIES; i++) {
            ServiceLoader.Provider<FenceAgentProvider> entry;
            try {
                if (!entries.hasNext()) {
                    break;
                }
                entry = entries.next();
            } catch (ServiceConfigurationError e) {
                failed.add(new DiscoveryFailure("?", "a service entry could not be loaded: " + e.getMessage(), e));
                continue;
            }
            AgentType declared = only == null ? null : entry.type().getAnnotation(AgentType.class);
            if (declared != null && !declared.value().equals(only)) {
                continue;
            }
            try {
                FenceAgentProvider provider = entry.get();
                if (declared != null && !declared.value().equals(provider.type())) {
                    failed.add(new DiscoveryFailure(entry.type().getName(), "declares type '" + declared.value()
                            + "' with @AgentType but its type() is '" + provider.type() + "'; make them agree",
                            new IllegalStateException("@AgentType mismatch")));
                } else if (only == null || only.equals(provider.type())) {
                    loaded.add(provider);
                }
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                Throwable root = e.getCause() != null ? e.getCause() : e;
                failed.add(new DiscoveryFailure(entry.type().getName(),
                        "could not be instantiated: " + root, e));
            }
        }
        return new FenceAgentRegistry(loaded, failed);
    }

    /** A registry of exactly these providers, without ServiceLoader. */
    public static FenceAgentRegistry of(Collection<? extends FenceAgentProvider> providers) {
        return new FenceAgentRegistry(List.copyOf(providers), List.of());
    }

    /** A registry of exactly these providers, without ServiceLoader. */
    public static FenceAgentRegistry of(FenceAgentProvider... providers) {
        return of(List.of(providers));
    }

    /**
     * Closes every provider that is {@link AutoCloseable} (what they started for their agents: an I/O thread, a
     * transport); a failure to close one is passed over. For a process about to exit (the JVM waits for an I/O
     * thread blocked in the kernel before it stops) or an application shutting down: agents created before may no
     * longer act.
     */
    public void closeProviders() {
        for (FenceAgentProvider provider : providers.values()) {
            if (provider instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    // closing is best effort: what the provider started stops with the process anyway
                }
            }
        }
    }

    /**
     * The provider of agent {@code type}.
     *
     * @throws DuplicateAgentException if two providers claim the type
     * @throws UnknownAgentException   if none does
     */
    public FenceAgentProvider provider(String type) {
        Objects.requireNonNull(type, "type");
        List<String> contenders = duplicates.get(type);
        if (contenders != null) {
            throw new DuplicateAgentException(type, contenders);
        }
        FenceAgentProvider provider = providers.get(type);
        if (provider == null) {
            throw new UnknownAgentException(type, types());
        }
        return provider;
    }

    /**
     * Creates an agent of {@code config}'s type through its provider, wrapped so that no secret value of
     * {@code config} appears in its outcome details, causes and plugs, in the exceptions it throws or fails its
     * futures with, in the progress messages it reports, or in its {@code toString}: each value is replaced by
     * {@link Secret#MASK} as it is, JSON-escaped, URL-encoded, in base64 and URL-safe base64, and in the base64 of
     * an HTTP Basic pair with any text parameter (the user name). A device that echoes a password in an error reply
     * thus cannot put it into the caller's records, events or log lines. An exception that held a secret is replaced
     * by one that keeps its class name in the message (an {@link InterruptedException} or a
     * {@link java.util.concurrent.CancellationException} keeps its type); the others pass as they are.
     *
     * <p>This is the path the engine and the CLI take. {@code provider(type).create(config)} and
     * {@code new XProvider().create(config)} give the agent unwrapped; {@code FenceAgentRegistry.of(provider)
     * .create(config)} wraps one without ServiceLoader. The agent's own log lines are its own: no wrapper sees them.
     *
     * @throws DuplicateAgentException if two providers claim the type
     * @throws UnknownAgentException   if none does
     * @throws dev.remedy.spi.config.InvalidConfigurationException listing every problem in {@code config}, as the
     *     provider's {@code create} does (replaced as above if its text holds a secret)
     */
    public FenceAgent create(AgentConfig config) {
        FenceAgentProvider provider = provider(config.agentType());
        SecretScrubber scrubber = SecretScrubber.of(config);
        try {
            return new ScrubbingFenceAgent(provider.create(config), scrubber);
        } catch (RuntimeException e) {
            throw scrubber.scrub(e);
        }
    }

    /** The usable providers, by type. */
    public List<FenceAgentProvider> providers() {
        return List.copyOf(providers.values());
    }

    /** The usable type ids. */
    public Set<String> types() {
        return Set.copyOf(providers.keySet());
    }

    /** Providers that failed to load, with the reason. */
    public List<DiscoveryFailure> failures() {
        return failures;
    }

    /** Type ids claimed by more than one provider, with the class names of each claimant. */
    public Map<String, List<String>> duplicates() {
        return Map.copyOf(duplicates);
    }

    /** Whether every provider loaded and no id is claimed twice. */
    public boolean isClean() {
        return failures.isEmpty() && duplicates.isEmpty();
    }

    /** A multi-line report: loaded, failed and duplicated providers. */
    public String report() {
        StringBuilder text = new StringBuilder();
        providers.forEach((type, p) -> text.append("loaded    ").append(type).append("  ")
                .append(p.getClass().getName()).append('\n'));
        duplicates.forEach((type, classes) -> text.append("DUPLICATE ").append(type).append("  ")
                .append(String.join(", ", classes)).append('\n'));
        failures.forEach(f -> text.append("FAILED    ").append(f.provider()).append("  ")
                .append(f.reason()).append('\n'));
        return text.toString();
    }

    private static String check(FenceAgentProvider candidate) {
        try {
            String type = candidate.type();
            if (type == null || !TYPE.matcher(type).matches()) {
                return "has an invalid type id '" + type + "' (it must match " + TYPE + ")";
            }
            if (candidate.spiVersion() > FenceAgentProvider.SPI_VERSION) {
                return "needs SPI version " + candidate.spiVersion() + " but this remedy implements "
                        + FenceAgentProvider.SPI_VERSION + "; upgrade remedy";
            }
            if (candidate.parameters() == null || candidate.supportedActions() == null) {
                return "declares no parameters or no supported actions (null)";
            }
            return kindProblem(type, candidate.fencingKind(), candidate.supportedActions());
        } catch (RuntimeException e) {
            return "failed to describe itself: " + e;
        }
    }

    /** Why the supported actions contradict the fencing kind, or null if they agree. */
    private static String kindProblem(String type, FencingKind kind, Set<FenceAction> actions) {
        String agent = "agent type '" + type + "'";
        if (kind == null) {
            return agent + " declares no fencing kind (fencingKind() returned null); return POWER, FABRIC, SOFT or"
                    + " SELF";
        }
        return switch (kind) {
            case POWER -> null;
            case FABRIC -> actions.contains(FenceAction.REBOOT)
                    ? agent + " declares fencing kind fabric but lists REBOOT among its supported actions; fabric"
                    + " fencing isolates the node and leaves the machine running, so REBOOT means nothing: remove"
                    + " REBOOT from supportedActions(), or declare kind POWER if OFF really stops the machine"
                    : null;
            case SOFT -> {
                List<String> wrong = Stream.of(FenceAction.OFF, FenceAction.ON).filter(actions::contains)
                        .map(FenceAction::name).toList();
                if (!wrong.isEmpty()) {
                    yield agent + " declares fencing kind soft but lists " + String.join(" and ", wrong)
                            + " among its supported actions; soft fencing asks the node's own system to reboot and"
                            + " cannot switch the machine off or on: remove " + String.join(" and ", wrong)
                            + " from supportedActions(), or declare kind POWER or FABRIC";
                }
                yield actions.contains(FenceAction.REBOOT) ? null : agent + " declares fencing kind soft but does"
                        + " not list REBOOT, the only action soft fencing has: add REBOOT to supportedActions()";
            }
            case SELF -> actions.contains(FenceAction.REBOOT)
                    ? agent + " declares fencing kind self but lists REBOOT among its supported actions; self fencing"
                    + " asks the node to reset itself (OFF) and reads when it must have (STATUS): remove REBOOT from"
                    + " supportedActions()"
                    : actions.containsAll(Set.of(FenceAction.OFF, FenceAction.STATUS)) ? null : agent + " declares"
                    + " fencing kind self but does not list both OFF and STATUS, which self fencing needs: add them to"
                    + " supportedActions()";
        };
    }
}
