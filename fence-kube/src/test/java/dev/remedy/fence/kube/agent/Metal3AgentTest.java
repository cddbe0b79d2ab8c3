package dev.remedy.fence.kube.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.fence.kube.testing.FakeBareMetalOperator;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code metal3} agent's own rules against BareMetalHosts on the mock API server, with the fake bare-metal
 * operator stepped once at every poll of the agent (on the agent's fake clock), so each test runs the same way
 * every time: the keyed request, the refusals, a crash between the request and its confirmation, and another
 * client's request that keeps the host off.
 */
@EnableKubernetesMockClient(crud = true)
class Metal3AgentTest {

    private static final Duration BUDGET = Duration.ofSeconds(30);
    private static final AtomicInteger HOSTS = new AtomicInteger();
    private static final Metal3FenceAgentProvider PROVIDER = new Metal3FenceAgentProvider();

    static KubernetesClient client;

    private String host;
    private String remedyKey;
    private FakeBareMetalOperator operator;
    private SteppingClock clock;

    @BeforeAll
    static void crds() {
        KubeObjects.installCrds(client);
    }

    private void host(boolean online, String state, boolean poweredOn) {
        host = "host-" + HOSTS.incrementAndGet();
        remedyKey = "reboot.metal3.io/remedy-" + KubeObjects.host(client, host, online, state, poweredOn)
                .getMetadata().getUid();
        operator = KubeObjects.operator(client, host);
        clock = new SteppingClock(operator::step);
    }

    private FenceAgent agent() {
        return PROVIDER.create(PROVIDER.configure().set("host", host).set("namespace", KubeObjects.NAMESPACE)
                .set("poll_interval", "1s").build(), client);
    }

    private FenceOutcome run(FenceAction action) throws InterruptedException {
        return run(agent(), action, clock);
    }

    private static FenceOutcome run(FenceAgent agent, FenceAction action, TimeSource time)
            throws InterruptedException {
        try (agent) {
            return agent.execute(new FenceRequest(action, "test"), FenceContext.start(time, BUDGET));
        }
    }

    @Test
    @DisplayName("OFF adds reboot.metal3.io/remedy-<uid> = {\"mode\":\"hard\"} and succeeds once status.poweredOn reads false")
    void offAddsTheKeyedHardRequest() throws InterruptedException {
        host(true, "provisioned", true);

        FenceOutcome off = run(FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(KubeObjects.rebootRequests(client, host)).containsExactly(Map.entry(remedyKey,
                "{\"mode\":\"hard\"}"));
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
        assertThat(operator.hardware()).containsExactly("off hard");
        assertThat(clock.sleeps()).as("the agent waited for the operator to power the host off").isPositive();
    }

    @Test
    @DisplayName("OFF of a host that is already off still adds remedy's request, which holds it off, and succeeds")
    void alreadyOffHostGetsTheRequest() throws InterruptedException {
        host(true, "provisioned", false);

        FenceOutcome off = run(FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys(remedyKey);
        operator.steps(3);
        assertThat(KubeObjects.status(client, host, "poweredOn")).as("held off by the request").isEqualTo(false);
        assertThat(operator.hardware()).doesNotContain("on");
    }

    @Test
    @DisplayName("OFF never succeeds while the host still reads powered on: without the operator it times out")
    void offWithoutTheOperatorTimesOut() throws InterruptedException {
        host(true, "provisioned", true);

        FenceOutcome off = run(agent(), FenceAction.OFF, new FakeTimeSource());

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(off.detail()).contains("status.poweredOn=true");
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys(remedyKey);
    }

    @Test
    @DisplayName("a new agent after a crash between the request and its confirmation finds the same keyed request")
    void retryAfterACrashFindsTheSameRequest() throws InterruptedException {
        host(true, "provisioned", true);
        FenceOutcome crashed = run(agent(), FenceAction.OFF, new FakeTimeSource());
        assertThat(crashed.status()).isEqualTo(FenceStatus.TIMED_OUT);
        Map<String, String> left = KubeObjects.rebootRequests(client, host);

        FenceOutcome retried = run(FenceAction.OFF);

        assertThat(retried.status()).as("%s", retried).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(KubeObjects.rebootRequests(client, host)).isEqualTo(left).containsOnlyKeys(remedyKey);
        assertThat(retried.detail()).contains(remedyKey);
        assertThat(operator.hardware()).containsExactly("off hard");
    }

    @Test
    @DisplayName("ON removes remedy's request only; another client's keyed request keeps the host off and ON fails naming it")
    void onLeavesAnotherClientsRequest() throws InterruptedException {
        host(true, "provisioned", true);
        assertThat(run(FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        KubeObjects.annotate(client, host, "reboot.metal3.io/capm3-remediation-9", "{\"mode\":\"hard\"}");

        FenceOutcome on = run(FenceAction.ON);

        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.FAILED);
        assertThat(on.detail()).contains("reboot.metal3.io/capm3-remediation-9", KubeObjects.NAMESPACE + "/" + host);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys("reboot.metal3.io/capm3-remediation-9");
        operator.steps(3);
        assertThat(KubeObjects.status(client, host, "poweredOn")).as("held off by the other request").isEqualTo(false);

        KubeObjects.annotate(client, host, "reboot.metal3.io/capm3-remediation-9", null);
        FenceOutcome again = run(FenceAction.ON);
        assertThat(again.status()).as("%s", again).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(again.power()).isEqualTo(PowerState.ON);
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
    }

    @Test
    @DisplayName("REBOOT powers the host off through remedy's request, removes it, and ends powered on")
    void rebootIsOffThenOn() throws InterruptedException {
        host(true, "provisioned", true);

        FenceOutcome reboot = run(FenceAction.REBOOT);

        assertThat(reboot.status()).as("%s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.power()).isEqualTo(PowerState.ON);
        assertThat(operator.hardware()).containsExactly("off hard", "on");
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
    }

    @ParameterizedTest(name = "annotated {0}")
    @ValueSource(strings = {"baremetalhost.metal3.io/detached", "baremetalhost.metal3.io/paused"})
    @DisplayName("a detached or paused host is refused for every action, naming the host and the annotation")
    void detachedAndPausedHostsAreRefused(String annotation) throws InterruptedException {
        host(true, "provisioned", true);
        KubeObjects.annotate(client, host, annotation, "");

        for (FenceAction action : new FenceAction[] {FenceAction.OFF, FenceAction.REBOOT, FenceAction.ON,
                FenceAction.STATUS}) {
            FenceOutcome outcome = run(action);
            assertThat(outcome.status()).as("%s: %s", action, outcome).isEqualTo(FenceStatus.REFUSED);
            assertThat(outcome.detail()).contains(KubeObjects.NAMESPACE + "/" + host, annotation, "Remove the annotation");
        }
        assertThat(KubeObjects.rebootRequests(client, host)).as("nothing written").isEmpty();
        assertThat(operator.hardware()).isEmpty();
    }

    @ParameterizedTest(name = "annotated {0}")
    @ValueSource(strings = {"baremetalhost.metal3.io/detached", "baremetalhost.metal3.io/paused"})
    @DisplayName("ON of a host detached or paused after OFF removes remedy's request first, then fails saying so;"
            + " the host powers on once managed again")
    void onWithdrawsTheRequestFromAnUnmanagedHost(String annotation) throws InterruptedException {
        host(true, "provisioned", true);
        assertThat(run(FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        KubeObjects.annotate(client, host, annotation, "");

        FenceOutcome on = run(FenceAction.ON);

        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.FAILED);
        assertThat(on.detail()).contains(remedyKey, "was removed", "not managed", annotation,
                KubeObjects.NAMESPACE + "/" + host);
        assertThat(KubeObjects.rebootRequests(client, host)).as("remedy's request withdrawn").isEmpty();
        FenceOutcome again = run(FenceAction.ON);
        assertThat(again.status()).as("nothing left to withdraw: %s", again).isEqualTo(FenceStatus.REFUSED);

        KubeObjects.annotate(client, host, annotation, null);
        operator.steps(3);
        assertThat(KubeObjects.status(client, host, "poweredOn")).as("not held off once managed again").isEqualTo(true);
        assertThat(operator.hardware()).containsExactly("off hard", "on");
    }

    @Test
    @DisplayName("a host with spec.online=false is refused OFF and REBOOT; STATUS reads its power and says its owner keeps it off")
    void offlineHostIsRefused() throws InterruptedException {
        host(false, "provisioned", false);

        for (FenceAction action : new FenceAction[] {FenceAction.OFF, FenceAction.REBOOT}) {
            FenceOutcome outcome = run(action);
            assertThat(outcome.status()).as("%s: %s", action, outcome).isEqualTo(FenceStatus.REFUSED);
            assertThat(outcome.detail()).contains(KubeObjects.NAMESPACE + "/" + host, "spec.online",
                    "owner wants it offline", "cannot confirm a fence it did not cause");
        }
        assertThat(KubeObjects.rebootRequests(client, host)).as("nothing written").isEmpty();

        FenceOutcome status = run(FenceAction.STATUS);
        assertThat(status.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(PowerState.OFF);
        assertThat(status.detail()).contains("its owner keeps it powered off");
    }

    @Test
    @DisplayName("ON of a host whose owner set spec.online=false removes remedy's request and fails, saying why")
    void onOfAnOfflineHostFails() throws InterruptedException {
        host(true, "provisioned", true);
        assertThat(run(FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        KubeObjects.setSpec(client, host, "online", false);

        FenceOutcome on = run(FenceAction.ON);

        assertThat(on.status()).as("%s", on).isEqualTo(FenceStatus.FAILED);
        assertThat(on.detail()).contains("spec.online is not true");
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
    }

    @Test
    @DisplayName("OFF of a host that is not provisioned is refused: the operator would not act on the request")
    void unprovisionedHostIsRefused() throws InterruptedException {
        host(true, "available", true);

        FenceOutcome off = run(FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.REFUSED);
        assertThat(off.detail()).contains("provisioning state 'available'");
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
    }

    @Test
    @DisplayName("STATUS without status.poweredOn fails with the power unknown, never a guess")
    void statusWithoutPoweredOnIsUnknown() throws InterruptedException {
        host(true, "provisioned", true);
        KubeObjects.setStatus(client, host, "poweredOn", null);

        FenceOutcome status = run(FenceAction.STATUS);

        assertThat(status.status()).as("%s", status).isEqualTo(FenceStatus.FAILED);
        assertThat(status.power()).isEqualTo(PowerState.UNKNOWN);
        assertThat(status.detail()).contains("no status.poweredOn");
    }

    @Test
    @DisplayName("OFF fails when another client removes remedy's request before the host reads off")
    void requestRemovedByAnotherClientFails() throws InterruptedException {
        host(true, "provisioned", true);
        SteppingClock otherClient = new SteppingClock(() -> KubeObjects.annotate(client, host, remedyKey, null));

        FenceOutcome off = run(agent(), FenceAction.OFF, otherClient);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains(remedyKey, "was removed", "not held off");
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
    }

    @Test
    @DisplayName("OFF fails when the host starts deprovisioning before it reads off, naming the state")
    void deprovisioningDuringOffFails() throws InterruptedException {
        host(true, "provisioned", true);
        SteppingClock deprovisioning = new SteppingClock(() -> {
            KubeObjects.setProvisioningState(client, host, "deprovisioning");
            operator.step();
        });

        FenceOutcome off = run(agent(), FenceAction.OFF, deprovisioning);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.FAILED);
        assertThat(off.detail()).contains("provisioning state 'deprovisioning'");
        assertThat(KubeObjects.rebootRequests(client, host)).as("cleared by the operator").isEmpty();
    }

    @Test
    @DisplayName("a BareMetalHost that does not exist fails, naming it and the parameters to check")
    void missingHostFails() throws InterruptedException {
        host = "no-such-host";
        FenceOutcome status = run(agent(), FenceAction.STATUS, new FakeTimeSource());

        assertThat(status.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(status.detail()).contains(KubeObjects.NAMESPACE + "/no-such-host", "not found", "host and namespace");
    }

    @Test
    @DisplayName("a kubeconfig that cannot be read fails the action, naming the file; creating the agent read nothing")
    void unreadableKubeconfigFails() throws InterruptedException {
        FenceAgent agent = PROVIDER.create(PROVIDER.configure().set("host", "h").set("namespace", "metal3")
                .set("kubeconfig", "/nonexistent/remedy-kubeconfig").build());

        FenceOutcome status = run(agent, FenceAction.STATUS, new FakeTimeSource());

        assertThat(status.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(status.detail()).contains("/nonexistent/remedy-kubeconfig", "cannot read kubeconfig");
    }

    @Test
    @DisplayName("an agent over the host's client refuses kubeconfig, token and ssl_insecure, which it would ignore")
    void givenClientRefusesClientParameters() {
        AgentConfig config = PROVIDER.configure().set("host", "h").set("namespace", "metal3")
                .set("kubeconfig", "/etc/kubeconfig").build();

        assertThatThrownBy(() -> PROVIDER.create(config, client)).isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("kubeconfig");
    }
}
