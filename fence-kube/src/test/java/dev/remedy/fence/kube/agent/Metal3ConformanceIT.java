package dev.remedy.fence.kube.agent;

import dev.remedy.fence.kube.testing.RealApiServer;
import dev.remedy.spi.config.AgentConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code metal3} agent keeps the fence-agent contract on a real kube-apiserver and etcd ({@link RealApiServer}:
 * skipped at once, with the reason logged, when kube-api-test's binaries are absent), with the same kit, objects and
 * fake bare-metal operator as {@link Metal3ConformanceTest}.
 *
 * <p>What the mock run does differently, and this run checks: the mock accepts any token and has no RBAC, so here the
 * agent authenticates with a real ServiceAccount token whose Role allows only {@code get} and {@code patch} on
 * {@code baremetalhosts}, and the kit's wrong-credentials test runs (a real server answers 401); the minimal
 * BareMetalHost CRD must be a structural schema a real server establishes; the agent's JSON and merge patches go
 * through a real server's patch code; the namespace must exist; and a stale status write of the fake operator gets
 * 409 Conflict (the mock accepts it), which the fake retries.
 *
 * <p>Still not checked: there is no real bare-metal operator. The fake moves {@code status.poweredOn} by remedy-core's
 * model of metal3's reboot rules, so this run does not prove that metal3's controller acts on remedy's keyed request
 * as modelled; and the minimal CRD keeps every field, so metal3's own schema validation of a BareMetalHost is not
 * applied to the agent's writes.
 */
@DisplayName("the metal3 agent's conformance on a real API server (kube-api-test)")
class Metal3ConformanceIT extends Metal3Conformance {

    @RegisterExtension
    static final RealApiServer API = new RealApiServer("the metal3 agent's conformance kit");

    private static String token;

    @BeforeAll
    static void start() {
        token = KubeConformance.realServerToken(API.client(), "remedy-metal3", List.of(
                KubeConformance.rule("metal3.io", List.of("baremetalhosts"), "get", "patch")));
        startOperator(API.client());
    }

    @Override
    protected KubernetesClient client() {
        return API.client();
    }

    @Override
    protected String token() {
        return token;
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config("wrong-token", client().getMasterUrl().toString(), KubeConformance.TOKEN));
    }
}
