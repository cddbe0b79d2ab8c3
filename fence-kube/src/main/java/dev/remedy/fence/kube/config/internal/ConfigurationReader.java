package dev.remedy.fence.kube.config.internal;

import dev.remedy.config.ConfigFileException;
import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.core.policy.PolicySet;
import dev.remedy.core.topology.FenceConfiguration;
import dev.remedy.core.topology.FenceConfigurationLoader;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads remedy's whole configuration from the ConfigMaps of one namespace with remedy's own loaders: the policies,
 * the fence configuration (checked by the agents) and the per-node {@code fence-config-<node>} ConfigMaps, every
 * problem of each collected. Pure: no API call. Thread-safe.
 */
public final class ConfigurationReader {

    /** The prefix of the Node remedy design's per-node fence configurations. */
    public static final String NODE_CONFIG_PREFIX = "fence-config-";

    private final Names names;
    private final FenceAgentRegistry registry;

    /**
     * Where each part is.
     *
     * @param policies    the policies ConfigMap
     * @param policiesKey its key (its extension gives the format)
     * @param fence       the fence configuration ConfigMap
     * @param fenceKey    its key (its extension gives the format)
     */
    public record Names(String policies, String policiesKey, String fence, String fenceKey) {

        /** Validates that every name is given. */
        public Names {
            Objects.requireNonNull(policies, "policies");
            Objects.requireNonNull(policiesKey, "policiesKey");
            Objects.requireNonNull(fence, "fence");
            Objects.requireNonNull(fenceKey, "fenceKey");
        }

        /** Whether {@code name} is a ConfigMap this configuration is read from. */
        public boolean concerns(String name) {
            return name.equals(policies) || name.equals(fence) || isNodeConfig(name);
        }

        /** Whether {@code name} is a per-node fence configuration (and not one of the two named ConfigMaps). */
        public boolean isNodeConfig(String name) {
            return name.startsWith(NODE_CONFIG_PREFIX) && !name.equals(policies) && !name.equals(fence);
        }
    }

    /**
     * What was read: a configuration, or every problem.
     *
     * @param policies the policies, if valid
     * @param fence    the fence configuration with the per-node configurations, if valid
     * @param problems every problem; empty when both are valid
     */
    public record Result(PolicySet policies, FenceConfiguration fence, List<ConfigProblem> problems) {

        /** Copies the problems. */
        public Result {
            problems = List.copyOf(problems);
        }

        /** Whether both parts are valid. */
        public boolean valid() {
            return problems.isEmpty();
        }
    }

    /** A reader of the ConfigMaps {@code names}, whose fence configuration names agents of {@code registry}. */
    public ConfigurationReader(Names names, FenceAgentRegistry registry) {
        this.names = Objects.requireNonNull(names, "names");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Reads the configuration from {@code configMaps} (the namespace's, by name). */
    public Result read(Map<String, ConfigMap> configMaps) {
        List<ConfigProblem> problems = new ArrayList<>();
        PolicySet policies = null;
        FenceConfiguration fence = null;
        String policiesText = text(configMaps, names.policies(), names.policiesKey(), problems);
        if (policiesText != null) {
            try {
                policies = new PolicyLoader().parse(policiesText, names.policies() + "/" + names.policiesKey());
            } catch (ConfigFileException e) {
                problems.addAll(e.issues());
            }
        }
        String fenceText = text(configMaps, names.fence(), names.fenceKey(), problems);
        if (fenceText != null) {
            try {
                fence = new FenceConfigurationLoader().parse(fenceText, names.fence() + "/" + names.fenceKey(),
                        registry);
                Map<String, Map<String, String>> nodeConfigs = new TreeMap<>();
                configMaps.forEach((name, map) -> {
                    if (names.isNodeConfig(name)) {
                        nodeConfigs.put(name, map.getData() == null ? Map.of() : map.getData());
                    }
                });
                fence = fence.withNodeConfigs(nodeConfigs);
            } catch (ConfigFileException e) {
                problems.addAll(e.issues());
            }
        }
        return problems.isEmpty() ? new Result(policies, fence, problems) : new Result(null, null, problems);
    }

    private static String text(Map<String, ConfigMap> configMaps, String name, String key,
                               List<ConfigProblem> problems) {
        ConfigMap map = configMaps.get(name);
        if (map == null) {
            problems.add(ConfigProblem.in(name, "", "the ConfigMap does not exist; create it with the key " + key));
            return null;
        }
        String text = map.getData() == null ? null : map.getData().get(key);
        if (text == null) {
            problems.add(ConfigProblem.in(name, "", "the ConfigMap has no key " + key + " (in data); put the "
                    + "configuration there"));
        }
        return text;
    }
}
