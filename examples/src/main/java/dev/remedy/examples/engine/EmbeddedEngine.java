package dev.remedy.examples.engine;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.core.topology.FenceConfiguration;
import dev.remedy.core.topology.FenceConfigurationLoader;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/** The README's engine example: what an operator does once at start-up. */
public final class EmbeddedEngine {

    private EmbeddedEngine() {
    }

    /**
     * Loads the fence configuration against {@code agents} ({@link FenceAgentRegistry#load()} finds every agent on
     * the class path; every problem is reported at once), opens the state directory and starts an engine, which
     * resumes any flow a previous process left in flight.
     */
    public static FenceEngine start(Path fenceConfig, Path stateDir, ClusterOperations cluster,
                                    FenceAgentRegistry agents, Function<String, Map<String, String>> nodeLabels,
                                    FlowSettings settings, TimeSource time) {
        FenceConfiguration config = new FenceConfigurationLoader().load(fenceConfig, agents);
        FenceEngine engine = FenceEngine.builder()
                .store(new JsonFileStateStore(stateDir))                         // write-ahead, atomic, fsync'ed
                .cluster(cluster)                                                // cordon, taint, delete pods
                .agents(agents)
                .plans(config.planSource(nodeLabels, SecretResolver.system()))   // levels per node
                .settings(settings)
                .time(time)
                .build();
        engine.start();
        return engine;
    }
}
