package com.example.operator;

import dev.remedy.core.engine.ClusterOperations;
import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.store.JsonFileStateStore;
import dev.remedy.core.topology.FenceConfiguration;
import dev.remedy.core.topology.FenceConfigurationLoader;
import dev.remedy.core.topology.SecretResolver;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/** An operator's start-up, written against remedy's published jars as the README shows it. */
public final class NodeFencing {

    private NodeFencing() {
    }

    /** Loads the fence configuration, opens the state directory and starts the engine. */
    public static FenceEngine start(Path fenceConfig, Path stateDir, ClusterOperations cluster,
                                    FenceAgentRegistry agents, Function<String, Map<String, String>> nodeLabels,
                                    SecretResolver secrets, TimeSource time) {
        FenceConfiguration config = new FenceConfigurationLoader().load(fenceConfig, agents);
        FenceEngine engine = FenceEngine.builder()
                .store(new JsonFileStateStore(stateDir))
                .cluster(cluster)
                .agents(agents)
                .plans(config.planSource(nodeLabels, secrets))
                .time(time)
                .build();
        engine.start();
        return engine;
    }
}
