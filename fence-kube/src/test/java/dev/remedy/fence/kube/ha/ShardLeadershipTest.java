package dev.remedy.fence.kube.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.engine.FenceEngine;
import dev.remedy.core.flow.NodeFence;
import dev.remedy.core.store.FenceStateStore;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.cluster.SimulatedCluster;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Leadership on the mock API server: one engine per shard, a graceful hand-over, and strict settings. */
@EnableKubernetesMockClient(crud = true)
class ShardLeadershipTest {

    static KubernetesClient client;

    private final InMemoryStateStore store = new InMemoryStateStore();
    private final SimulatedCluster cluster = new SimulatedCluster().node("n1", 1);
    private final List<String> built = Collections.synchronizedList(new ArrayList<>());

    private ShardLeadership replica(String shard, String identity) {
        return ShardLeadership.builder(client).shard(shard).namespace("remedy").identity(identity)
                .leaseDuration(Duration.ofSeconds(30)).renewDeadline(Duration.ofSeconds(20))
                .retryPeriod(Duration.ofMillis(100)).engineFactory(guard -> {
                    built.add(guard.identity());
                    return guard.fence(FenceEngine.builder(), store, cluster).agents(FenceAgentRegistry.of())
                            .plans(n -> Optional.empty()).build();
                }).build();
    }

    @Test
    @DisplayName("one replica leads and runs an engine; close() releases the Lease and the standby takes over at once,"
            + " long before the 30 s lease duration")
    void gracefulHandOver() throws Exception {
        ShardLeadership a = replica("hand-over", "pod-a");
        ShardLeadership b = replica("hand-over", "pod-b");
        try (a; b) {
            a.start();
            assertThat(FailoverWorld.await(() -> a.engine().isPresent(), Duration.ofSeconds(10), () -> { })).isTrue();
            b.start();
            Thread.sleep(300);
            assertThat(a.isLeading()).isTrue();
            assertThat(b.isLeading()).isFalse();
            assertThat(b.engine()).isEmpty();
            assertThat(lease("remedy-hand-over").getSpec().getHolderIdentity()).isEqualTo("pod-a");
            LeaseGuard term = a.guard().orElseThrow();

            a.close();
            assertThat(term.holds()).as("the old term stops acting before the Lease is released").isFalse();
            assertThat(a.isLeading()).isFalse();
            assertThat(FailoverWorld.await(() -> b.engine().isPresent(), Duration.ofSeconds(10), () -> { }))
                    .as("the standby takes over after the release, not after the lease duration").isTrue();
            assertThat(lease("remedy-hand-over").getSpec().getHolderIdentity()).isEqualTo("pod-b");
            assertThat(built).containsExactly("pod-a", "pod-b");
        }
    }

    @Test
    @DisplayName("the engine is handed out only once its start() has returned: a decision made during the start would"
            + " otherwise be issued a second time by the start's recovery")
    void engineOnlyOnceStarted() throws Exception {
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FenceStateStore slowStart = new FenceStateStore() {
            @Override
            public Optional<NodeFence> load(String node) {
                return store.load(node);
            }

            @Override
            public List<NodeFence> loadAll() {
                loading.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return store.loadAll();
            }

            @Override
            public NodeFence save(NodeFence record) {
                return store.save(record);
            }

            @Override
            public void delete(String node) {
                store.delete(node);
            }
        };
        ShardLeadership a = ShardLeadership.builder(client).shard("slow-start").namespace("remedy").identity("pod-a")
                .leaseDuration(Duration.ofSeconds(30)).renewDeadline(Duration.ofSeconds(20))
                .retryPeriod(Duration.ofMillis(100)).engineFactory(guard -> guard.fence(FenceEngine.builder(),
                        slowStart, cluster).agents(FenceAgentRegistry.of()).plans(n -> Optional.empty()).build())
                .build();
        try (a) {
            a.start();
            assertThat(loading.await(10, TimeUnit.SECONDS)).as("the engine's start began").isTrue();

            Optional<FenceEngine> duringStart = a.engine();
            release.countDown();

            assertThat(duringStart).as("no engine while its start() runs").isEmpty();
            assertThat(FailoverWorld.await(() -> a.engine().isPresent(), Duration.ofSeconds(10), () -> { })).isTrue();
        }
    }

    @Test
    @DisplayName("the builder names every missing part and refuses a renew deadline not shorter than the lease")
    void strictBuilder() {
        assertThatThrownBy(() -> ShardLeadership.builder(client).identity("x").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shard is not set").hasMessageContaining("namespace is not set")
                .hasMessageContaining("engineFactory is not set");
        assertThatThrownBy(() -> ShardLeadership.builder(client).shard("s").namespace("ns").identity("x")
                .engineFactory(g -> null).leaseDuration(Duration.ofSeconds(10)).renewDeadline(Duration.ofSeconds(10))
                .build()).hasMessageContaining("leaseDuration (PT10S) must be longer than renewDeadline (PT10S)");
        assertThatThrownBy(() -> ShardLeadership.builder(client).shard("Rack_A"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DNS label");
        assertThat(ShardLeadership.builder(client).shard("rack-a").namespace("ns").identity("x")
                .engineFactory(g -> null).build().lease()).isEqualTo("ns/remedy-rack-a");
    }

    private static Lease lease(String name) {
        return client.leases().inNamespace("remedy").withName(name).get();
    }
}
