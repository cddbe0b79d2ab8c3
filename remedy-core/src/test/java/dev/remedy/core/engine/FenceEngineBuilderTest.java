package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The engine's builder refuses repeated and conflicting settings at the call, and names what build() misses. */
class FenceEngineBuilderTest {

    private final Executor inPlace = Runnable::run;

    private static FenceEngine.Builder complete() {
        return FenceEngine.builder().store(new InMemoryStateStore()).cluster(new SimulatedCluster())
                .agents(FenceAgentRegistry.of()).plans(node -> Optional.empty());
    }

    @Test
    @DisplayName("a complete builder builds an engine, with defaults for everything optional")
    void builds() {
        try (FenceEngine engine = complete().build()) {
            engine.start();
            assertThat(engine.records()).isEmpty();
        }
    }

    @Test
    @DisplayName("build() names every required part that is missing, all at once")
    void missingPartsNamedTogether() {
        assertThatThrownBy(() -> FenceEngine.builder().store(new InMemoryStateStore()).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a FenceEngine needs store, cluster, agents and plans; cluster, agents, plans were not set");
        assertThatThrownBy(() -> FenceEngine.builder().store(new InMemoryStateStore()).cluster(new SimulatedCluster())
                .agents(FenceAgentRegistry.of()).build())
                .hasMessage("a FenceEngine needs store, cluster, agents and plans; plans was not set");
    }

    @Test
    @DisplayName("a setting given twice is refused at the second call, naming the setting and its first value")
    void repeatedSettingRefused() {
        FakeTimeSource time = new FakeTimeSource();
        FenceEngine.Builder builder = complete().time(time).settings(FlowSettings.ofDefaults());

        assertThatThrownBy(() -> builder.store(new InMemoryStateStore())).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("store was already set to ").hasMessageEndingWith("; set it once");
        assertThatThrownBy(() -> builder.time(new FakeTimeSource()))
                .hasMessage("time was already set to " + time + "; set it once");
        assertThatThrownBy(() -> builder.settings(FlowSettings.ofDefaults()))
                .hasMessageStartingWith("settings was already set to ");
        assertThatThrownBy(() -> builder.plans(node -> Optional.empty())).hasMessageStartingWith("plans was");
        assertThatThrownBy(() -> builder.cluster(new SimulatedCluster())).hasMessageStartingWith("cluster was");
        assertThatThrownBy(() -> builder.agents(FenceAgentRegistry.of())).hasMessageStartingWith("agents was");
        builder.history(10, 100);
        assertThatThrownBy(() -> builder.history(5, 50)).hasMessageStartingWith("history was already set");
    }

    @Test
    @DisplayName("threads after an executor, or an executor after threads, is refused: one would override the other")
    void executorAndThreadsConflict() {
        assertThatThrownBy(() -> complete().executor(inPlace).threads(4))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("executor was already set to").hasMessageContaining("threads(4)")
                .hasMessageContaining("give either an executor or threads");
        assertThatThrownBy(() -> complete().threads(4).executor(inPlace))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("threads was already set to 4")
                .hasMessageContaining("give either an executor or threads");
        assertThatThrownBy(() -> complete().executor(inPlace).executor(inPlace))
                .hasMessageStartingWith("executor was already set to");
        assertThatThrownBy(() -> complete().threads(2).threads(3)).hasMessage("threads was already set to 2; set it once");
    }

    @Test
    @DisplayName("bad values are refused at the call that gives them, naming the setting")
    void badValuesRefusedAtOnce() {
        assertThatThrownBy(() -> FenceEngine.builder().store(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("store");
        assertThatThrownBy(() -> FenceEngine.builder().listener(null)).hasMessage("listener");
        assertThatThrownBy(() -> FenceEngine.builder().threads(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("threads must be >= 1, was 0");
        assertThatThrownBy(() -> FenceEngine.builder().history(0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("perNode=0");
    }

    @Test
    @DisplayName("listeners add up: listener() may be called many times")
    void listenersAddUp() {
        try (FenceEngine engine = complete().listener(event -> { }).listener(event -> { }).build()) {
            assertThat(engine.history().all()).isEmpty();
        }
    }
}
