package dev.remedy.fence.kube.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.rules.RebootDecision;
import dev.remedy.fence.kube.testing.FakeBareMetalOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every rule of the reboot interface (remedy-core's {@code RebootRequests}, metal3's reboot annotation design) acted
 * out on a real BareMetalHost object of the mock API server by the fake bare-metal operator, one rule a test,
 * asserted on the object (annotations, {@code status.poweredOn}, {@code status.lastPoweredOn},
 * {@code status.pendingRebootSince}) and on the power commands the host's hardware received.
 */
@EnableKubernetesMockClient(crud = true)
class RebootInterfaceRulesTest {

    private static final String UNKEYED = "reboot.metal3.io";
    private static final String HARD = "{\"mode\":\"hard\"}";
    private static final AtomicInteger HOSTS = new AtomicInteger();

    static KubernetesClient client;

    private String host;
    private FakeBareMetalOperator operator;

    @BeforeAll
    static void crds() {
        KubeObjects.installCrds(client);
    }

    private void host(boolean online, String state, boolean poweredOn) {
        host = "host-" + HOSTS.incrementAndGet();
        KubeObjects.host(client, host, online, state, poweredOn);
        operator = KubeObjects.operator(client, host);
    }

    @Test
    @DisplayName("the unkeyed request is set-and-forget: the host powers off, then the operator removes it and powers on")
    void unkeyedRequestIsRemovedAfterPowerOn() {
        host(true, "provisioned", true);
        KubeObjects.annotate(client, host, UNKEYED, "");

        operator.step();
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys(UNKEYED);
        Instant pending = Instant.parse((String) KubeObjects.status(client, host, "pendingRebootSince"));

        operator.step();
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
        assertThat(Instant.parse((String) KubeObjects.status(client, host, "lastPoweredOn"))).isAfter(pending);

        operator.steps(3);
        assertThat(operator.hardware()).as("one reboot, not two").containsExactly("off soft", "on");
    }

    @ParameterizedTest(name = "in state {0}")
    @ValueSource(strings = {"provisioned", "externally provisioned"})
    @DisplayName("a keyed request holds the host off until its client removes it")
    void keyedRequestHoldsTheHostOff(String state) {
        host(true, state, true);
        KubeObjects.annotate(client, host, "reboot.metal3.io/capm3-remediation-7", HARD);

        operator.steps(5);
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys("reboot.metal3.io/capm3-remediation-7");

        KubeObjects.annotate(client, host, "reboot.metal3.io/capm3-remediation-7", null);
        operator.step();
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
        assertThat(operator.hardware()).containsExactly("off hard", "on");
    }

    @Test
    @DisplayName("any hard request wins over soft ones: the host is powered off hard")
    void hardWinsOverSoft() {
        host(true, "provisioned", true);
        KubeObjects.annotate(client, host, UNKEYED, "");
        KubeObjects.annotate(client, host, "reboot.metal3.io/a", "{\"mode\":\"soft\"}");
        KubeObjects.annotate(client, host, "reboot.metal3.io/b", HARD);

        operator.step();
        assertThat(operator.hardware()).containsExactly("off hard");
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
    }

    @ParameterizedTest(name = "value ''{0}''")
    @ValueSource(strings = {"", "not json", "[1]", "{\"mode\":\"brutal\"}", "{\"force\":true}"})
    @DisplayName("an empty or invalid value still reboots, softly, and the value is left as its client wrote it")
    void emptyOrInvalidValueMeansSoft(String value) {
        host(true, "provisioned", true);
        KubeObjects.annotate(client, host, "reboot.metal3.io/typo", value);

        RebootDecision decision = operator.step().orElseThrow();
        assertThat(operator.hardware()).containsExactly("off soft");
        assertThat(KubeObjects.rebootRequests(client, host)).containsExactly(Map.entry("reboot.metal3.io/typo", value));
        boolean malformed = Set.of("not json", "[1]", "{\"mode\":\"brutal\"}").contains(value);
        assertThat(decision.problems()).as("malformed values are reported").hasSize(malformed ? 1 : 0);
    }

    @Test
    @DisplayName("a request whose pendingRebootSince is after lastPoweredOn is the same reboot: it ends with power on")
    void pendingAfterLastPowerOnIsTheSameRequest() {
        host(true, "provisioned", false);
        KubeObjects.setStatus(client, host, "lastPoweredOn", "2025-12-31T23:00:00Z");
        KubeObjects.setStatus(client, host, "pendingRebootSince", "2025-12-31T23:30:00Z");
        KubeObjects.annotate(client, host, UNKEYED, "");

        operator.step();
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
        assertThat(KubeObjects.status(client, host, "pendingRebootSince")).as("not renewed")
                .isEqualTo("2025-12-31T23:30:00Z");
        assertThat(operator.hardware()).containsExactly("on");
    }

    @Test
    @DisplayName("a request older than the last power on is a new request: pendingRebootSince is renewed and the host reboots")
    void requestOlderThanLastPowerOnIsNew() {
        host(true, "provisioned", true);
        KubeObjects.setStatus(client, host, "pendingRebootSince", "2025-12-31T23:00:00Z");
        KubeObjects.setStatus(client, host, "lastPoweredOn", "2025-12-31T23:30:00Z");
        KubeObjects.annotate(client, host, UNKEYED, "");

        operator.step();
        assertThat(Instant.parse((String) KubeObjects.status(client, host, "pendingRebootSince")))
                .isAfter(Instant.parse("2025-12-31T23:30:00Z"));
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
        assertThat(operator.hardware()).containsExactly("off soft");
    }

    @Test
    @DisplayName("a lastPoweredOn in the future (a clock that went back) leaves the host on until the clock passes it")
    void lastPowerOnInTheFutureWaits() {
        host(true, "provisioned", true);
        KubeObjects.setStatus(client, host, "lastPoweredOn", "2030-01-01T00:00:00Z");
        KubeObjects.annotate(client, host, "reboot.metal3.io/k", HARD);

        operator.steps(3);
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys("reboot.metal3.io/k");
        assertThat(operator.hardware()).isEmpty();
    }

    @Test
    @DisplayName("with spec.online=false the unkeyed request stays after power off, until the host is brought online")
    void offlineHostKeepsTheUnkeyedRequest() {
        host(false, "provisioned", true);
        KubeObjects.annotate(client, host, UNKEYED, "");

        operator.steps(4);
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys(UNKEYED);

        KubeObjects.setSpec(client, host, "online", true);
        operator.step();
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
        assertThat(operator.hardware()).containsExactly("off soft", "on");
    }

    @ParameterizedTest(name = "in state {0}")
    @ValueSource(strings = {"deprovisioning", "deleting"})
    @DisplayName("deprovisioning clears every request and the pending time")
    void deprovisioningClearsEveryRequest(String state) {
        host(true, state, true);
        KubeObjects.setStatus(client, host, "pendingRebootSince", "2025-12-31T23:00:00Z");
        KubeObjects.annotate(client, host, UNKEYED, "");
        KubeObjects.annotate(client, host, "reboot.metal3.io/remedy-1", HARD);
        KubeObjects.annotate(client, host, "example.com/other", "kept");

        operator.step();
        assertThat(KubeObjects.rebootRequests(client, host)).isEmpty();
        assertThat(KubeObjects.annotations(client, host)).containsEntry("example.com/other", "kept");
        assertThat(KubeObjects.status(client, host, "pendingRebootSince")).isNull();
        assertThat(operator.hardware()).as("no reboot").doesNotContain("off hard", "off soft");
    }

    @ParameterizedTest(name = "in state {0}")
    @ValueSource(strings = {"available", "inspecting", "provisioning"})
    @DisplayName("outside provisioned states requests are kept but not acted on; once provisioned they are")
    void requestsWaitForAProvisionedHost(String state) {
        host(true, state, true);
        KubeObjects.annotate(client, host, "reboot.metal3.io/k", HARD);

        operator.steps(3);
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(true);
        assertThat(KubeObjects.rebootRequests(client, host)).containsOnlyKeys("reboot.metal3.io/k");
        assertThat(operator.hardware()).isEmpty();

        KubeObjects.setProvisioningState(client, host, "provisioned");
        operator.step();
        assertThat(KubeObjects.status(client, host, "poweredOn")).isEqualTo(false);
    }
}
