package dev.remedy.fence.kube.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.Stage;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The medik8s node Lease on the mock API server (CRUD mode; Leases behave there as on a real server, except that a
 * Lease can be created in a namespace that does not exist: the 404 a real server answers is not tested here).
 */
@EnableKubernetesMockClient(crud = true)
class NodeRemediationLeaseTest {

    static KubernetesClient client;

    private final FakeTimeSource time = new FakeTimeSource();
    private final NodeRemediationLease leases = NodeRemediationLease.builder(client, "remedy-rack-a")
            .leaseDuration(Duration.ofMinutes(10)).createNamespace(true).time(time).build();

    @Test
    @DisplayName("acquire creates node-<node> in medik8s-leases as medik8s writes it; release deletes it")
    void acquireAndRelease() {
        assertThat(leases.holdBack("w1", null, null, time.instant())).isEmpty();
        assertThat(leases.acquire("w1")).isEmpty();
        Lease lease = lease("node-w1");
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("remedy-rack-a");
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(600);
        assertThat(lease.getSpec().getLeaseTransitions()).isZero();
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(time.instant());
        assertThat(lease.getSpec().getAcquireTime().toInstant()).isEqualTo(time.instant());
        assertThat(client.namespaces().withName("medik8s-leases").get()).isNotNull();
        assertThat(leases.holdBack("w1", null, null, time.instant())).as("our own Lease admits").isEmpty();

        time.advance(Duration.ofMinutes(1));
        assertThat(leases.acquire("w1")).as("renewed").isEmpty();
        assertThat(lease("node-w1").getSpec().getRenewTime().toInstant()).isEqualTo(time.instant());
        assertThat(lease("node-w1").getSpec().getAcquireTime().toInstant()).isBefore(time.instant());

        leases.onEvent(new FenceEvent.Transitioned("w1", time.instant(), Stage.RECOVER_CLUSTER, Stage.FINISHED, "ok"));
        assertThat(client.leases().inNamespace("medik8s-leases").withName("node-w1").get()).isNull();
    }

    @Test
    @DisplayName("another remediator's valid Lease holds remedy back, naming the holder; once expired it is taken over")
    void respectsOtherHolder() {
        Instant renewed = time.instant();
        client.leases().inNamespace("medik8s-leases").resource(new LeaseBuilder().withNewMetadata()
                .withName("node-w2").withNamespace("medik8s-leases").endMetadata().withNewSpec()
                .withHolderIdentity("NodeHealthCheck-nhc-workers").withLeaseDurationSeconds(120)
                .withRenewTime(renewed.atZone(ZoneOffset.UTC)).withAcquireTime(renewed.atZone(ZoneOffset.UTC))
                .withLeaseTransitions(2).endSpec().build()).create();

        time.advance(Duration.ofSeconds(119));
        assertThat(leases.holdBack("w2", null, null, time.instant())).hasValueSatisfying(why -> assertThat(why)
                .contains("NodeHealthCheck-nhc-workers", "medik8s-leases/node-w2", "remedy does not start"));
        assertThat(leases.acquire("w2")).hasValueSatisfying(why -> assertThat(why)
                .contains("NodeHealthCheck-nhc-workers"));
        assertThat(lease("node-w2").getSpec().getHolderIdentity()).isEqualTo("NodeHealthCheck-nhc-workers");
        leases.release("w2");
        assertThat(lease("node-w2")).as("another holder's Lease is left alone").isNotNull();

        time.advance(Duration.ofSeconds(2));
        assertThat(leases.holdBack("w2", null, null, time.instant())).as("expired").isEmpty();
        assertThat(leases.acquire("w2")).isEmpty();
        Lease taken = lease("node-w2");
        assertThat(taken.getSpec().getHolderIdentity()).isEqualTo("remedy-rack-a");
        assertThat(taken.getSpec().getLeaseTransitions()).isEqualTo(3);
        assertThat(taken.getSpec().getAcquireTime().toInstant()).isEqualTo(time.instant());
    }

    @Test
    @DisplayName("a replica that does not lead neither takes nor releases node Leases")
    void onlyWhileLeading() {
        NodeRemediationLease standby = NodeRemediationLease.builder(client, "remedy-rack-a").time(time)
                .onlyWhile(() -> false).build();
        assertThat(standby.acquire("w3")).hasValueSatisfying(why -> assertThat(why).contains("does not lead"));
        assertThat(client.leases().inNamespace("medik8s-leases").withName("node-w3").get()).isNull();
        assertThat(leases.acquire("w3")).isEmpty();
        standby.release("w3");
        assertThat(lease("node-w3")).isNotNull();
    }

    private static Lease lease(String name) {
        return client.leases().inNamespace("medik8s-leases").withName(name).get();
    }
}
