package dev.remedy.fence.kube.config;

import dev.remedy.core.policy.PolicySet;
import dev.remedy.core.topology.FenceConfiguration;
import dev.remedy.fence.kube.config.internal.ConfigurationReader;
import dev.remedy.fence.kube.config.internal.ProblemNote;
import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * remedy's configuration from ConfigMaps of the operator's namespace, kept current with an informer: the policies
 * ({@value #DEFAULT_POLICIES}, key {@value #DEFAULT_POLICIES_KEY}), the fence configuration
 * ({@value #DEFAULT_FENCE}, key {@value #DEFAULT_FENCE_KEY}) and the Node remedy design's per-node
 * {@code fence-config-<node>} ConfigMaps (read by
 * {@link FenceConfiguration#withNodeConfigs}). Names and keys are settable; a key's extension gives its format.
 *
 * <p>On every change of one of them the whole new configuration is read with remedy's own loaders
 * ({@link dev.remedy.core.policy.PolicyLoader}, {@link dev.remedy.core.topology.FenceConfigurationLoader}, which
 * runs every agent's {@link dev.remedy.spi.FenceAgentProvider#validate}, as {@code remedy check} does). A valid one
 * is handed to the host's listener and announced with a Normal Event ({@code ConfigurationApplied}); a refused one
 * leaves the running configuration in place, is logged with every problem, and is announced with one Warning Event
 * ({@code ConfigurationRefused}) on the ConfigMap that changed, naming every problem within the Event's bound.
 * Secrets are not read here (they stay references until a node's plan is built), so no Event or log line holds one.
 * A resync that changes nothing is not read again.
 *
 * <p>Thread-safety: changes are read one at a time on the informer's thread, which also calls the listener; a
 * listener that throws is logged and does not undo the change. Input is bounded: a ConfigMap holds at most 1 MiB,
 * and the loaders refuse larger documents and values.
 */
public final class ClusterConfiguration implements AutoCloseable {

    /** The default name of the policies ConfigMap. */
    public static final String DEFAULT_POLICIES = "remedy-policies";
    /** The default key of the policies in their ConfigMap. */
    public static final String DEFAULT_POLICIES_KEY = "policies.yaml";
    /** The default name of the fence configuration ConfigMap. */
    public static final String DEFAULT_FENCE = "remedy-fence";
    /** The default key of the fence configuration in its ConfigMap. */
    public static final String DEFAULT_FENCE_KEY = "fence.yaml";
    /** The Event reason of a change applied. */
    public static final String APPLIED = "ConfigurationApplied";
    /** The Event reason of a change refused. */
    public static final String REFUSED = "ConfigurationRefused";

    private static final Logger LOG = LoggerFactory.getLogger(ClusterConfiguration.class);

    /**
     * One valid configuration.
     *
     * @param policies the policies
     * @param fence    the fence configuration, per-node configurations included
     */
    public record Configuration(PolicySet policies, FenceConfiguration fence) {

        /** Validates that both are present. */
        public Configuration {
            Objects.requireNonNull(policies, "policies");
            Objects.requireNonNull(fence, "fence");
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final ConfigurationReader.Names names;
    private final ConfigurationReader reader;
    private final KubeEvents events;
    private final Consumer<Configuration> listener;
    private final Duration resync;
    private SharedIndexInformer<ConfigMap> informer;
    private volatile boolean synced;
    private volatile Configuration current;
    private Map<String, String> lastRead;

    private ClusterConfiguration(Builder builder) {
        this.client = builder.client;
        this.namespace = builder.namespace;
        this.names = new ConfigurationReader.Names(builder.policies, builder.policiesKey, builder.fence,
                builder.fenceKey);
        this.reader = new ConfigurationReader(names, builder.registry);
        this.events = builder.events;
        this.listener = builder.listener;
        this.resync = builder.resync;
    }

    /**
     * A builder for the ConfigMaps of {@code namespace}, read with {@code client}; fence configurations may name
     * the agents of {@code registry}, and each valid configuration goes to {@code listener}.
     */
    public static Builder builder(KubernetesClient client, String namespace, FenceAgentRegistry registry,
                                  Consumer<Configuration> listener) {
        return new Builder(client, namespace, registry, listener);
    }

    /**
     * Starts watching. The returned stage completes once the informer has listed the namespace's ConfigMaps and the
     * first configuration was read (applied or refused); it fails if the informer cannot start.
     *
     * @throws IllegalStateException if already started
     */
    public synchronized CompletionStage<Void> start() {
        if (informer != null) {
            throw new IllegalStateException("this ClusterConfiguration was started already");
        }
        informer = client.configMaps().inNamespace(namespace).runnableInformer(resync.toMillis());
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap map) {
                changed(map);
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap after) {
                changed(after);
            }

            @Override
            public void onDelete(ConfigMap map, boolean finalStateUnknown) {
                changed(map);
            }
        });
        return informer.start().thenRun(() -> {
            synced = true;
            reload(null);
        });
    }

    /** The configuration running now: the last valid one, if any was. */
    public Optional<Configuration> current() {
        return Optional.ofNullable(current);
    }

    /** Stops watching; the listener is not called again. */
    @Override
    public synchronized void close() {
        if (informer != null) {
            informer.close();
        }
    }

    private void changed(ConfigMap map) {
        if (synced && map.getMetadata() != null && names.concerns(map.getMetadata().getName())) {
            reload(map);
        }
    }

    /** Reads the whole configuration again; {@code trigger} is the ConfigMap that changed (null at start). */
    private synchronized void reload(ConfigMap trigger) {
        Map<String, ConfigMap> maps = new HashMap<>();
        for (ConfigMap map : informer.getStore().list()) {
            if (names.concerns(map.getMetadata().getName())) {
                maps.put(map.getMetadata().getName(), map);
            }
        }
        Map<String, String> versions = maps.values().stream().collect(Collectors.toMap(
                m -> m.getMetadata().getName(), m -> String.valueOf(m.getMetadata().getResourceVersion())));
        if (versions.equals(lastRead)) {
            return;
        }
        lastRead = versions;
        ConfigurationReader.Result result = reader.read(maps);
        ObjectReference regarding = regarding(trigger, maps);
        if (!result.valid()) {
            LOG.warn("the configuration in namespace {} was refused, the running one is kept ({} problems):{}",
                    namespace, result.problems().size(), result.problems().stream().map(p -> "\n  " + p)
                            .collect(Collectors.joining()));
            events.publish(new KubeEvents.Note(regarding, true, REFUSED, "Validate", ProblemNote.of(
                    "configuration refused, " + (current == null ? "none is running yet" : "the running one is kept"),
                    result.problems())));
            return;
        }
        Configuration next = new Configuration(result.policies(), result.fence());
        current = next;
        String summary = "configuration applied: " + next.policies().names().size() + " policies, fence "
                + "configuration with " + next.fence().topologyNames().size() + " topologies and "
                + next.fence().nodeConfigNames().size() + " per-node configurations";
        LOG.info("{} (namespace {})", summary, namespace);
        try {
            listener.accept(next);
        } catch (RuntimeException e) {
            LOG.error("the configuration listener failed; the configuration stays applied", e);
        }
        events.publish(new KubeEvents.Note(regarding, false, APPLIED, "Apply", summary));
    }

    private ObjectReference regarding(ConfigMap trigger, Map<String, ConfigMap> maps) {
        ConfigMap map = trigger != null ? trigger : maps.get(names.fence());
        String name = map != null ? map.getMetadata().getName() : names.fence();
        return new ObjectReferenceBuilder().withApiVersion("v1").withKind("ConfigMap").withNamespace(namespace)
                .withName(name).withUid(map != null ? map.getMetadata().getUid() : null).build();
    }

    /** Settings of a {@link ClusterConfiguration}; each setter checks its value at once. */
    public static final class Builder {

        private final KubernetesClient client;
        private final String namespace;
        private final FenceAgentRegistry registry;
        private final Consumer<Configuration> listener;
        private String policies = DEFAULT_POLICIES;
        private String policiesKey = DEFAULT_POLICIES_KEY;
        private String fence = DEFAULT_FENCE;
        private String fenceKey = DEFAULT_FENCE_KEY;
        private KubeEvents events = KubeEvents.NONE;
        private Duration resync = Duration.ofMinutes(10);

        private Builder(KubernetesClient client, String namespace, FenceAgentRegistry registry,
                        Consumer<Configuration> listener) {
            this.client = Objects.requireNonNull(client, "client");
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            this.registry = Objects.requireNonNull(registry, "registry");
            this.listener = Objects.requireNonNull(listener, "listener");
        }

        /** The policies ConfigMap and its key (default {@value #DEFAULT_POLICIES}, {@value #DEFAULT_POLICIES_KEY}). */
        public Builder policies(String configMap, String key) {
            this.policies = name(configMap, "policies ConfigMap");
            this.policiesKey = name(key, "policies key");
            return this;
        }

        /** The fence configuration ConfigMap and its key (default {@value #DEFAULT_FENCE}, {@value #DEFAULT_FENCE_KEY}). */
        public Builder fence(String configMap, String key) {
            this.fence = name(configMap, "fence ConfigMap");
            this.fenceKey = name(key, "fence key");
            return this;
        }

        /** Where Events are published (default {@link KubeEvents#NONE}). */
        public Builder events(KubeEvents events) {
            this.events = Objects.requireNonNull(events, "events");
            return this;
        }

        /** The informer's resync period (default 10 minutes; at least 1 second). */
        public Builder resync(Duration resync) {
            if (resync.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("resync is " + resync + "; give at least 1s");
            }
            this.resync = resync;
            return this;
        }

        /**
         * The configuration, not started yet.
         *
         * @throws IllegalStateException if the policies and the fence configuration are in one ConfigMap under one
         *                               key
         */
        public ClusterConfiguration build() {
            if (policies.equals(fence) && policiesKey.equals(fenceKey)) {
                throw new IllegalStateException("the policies and the fence configuration are both set to key "
                        + fenceKey + " of ConfigMap " + fence + "; give each its own key");
            }
            return new ClusterConfiguration(this);
        }

        private static String name(String value, String what) {
            Objects.requireNonNull(value, what);
            if (value.isBlank()) {
                throw new IllegalArgumentException("the " + what + " is blank; give a name");
            }
            return value;
        }
    }
}
