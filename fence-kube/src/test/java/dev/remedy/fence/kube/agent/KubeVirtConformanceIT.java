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
 * The {@code kubevirt} agent keeps the fence-agent contract on a real kube-apiserver and etcd
 * ({@link RealApiServer}: skipped at once, with the reason logged, when kube-api-test's binaries are absent), with the
 * same kit, objects and fake KubeVirt as {@link KubeVirtConformanceTest}.
 *
 * <p>What the mock run does differently, and this run checks: the mock accepts any token and has no RBAC, so here the
 * agent authenticates with a real ServiceAccount token whose Role allows only {@code get}, {@code list} and
 * {@code patch} on {@code virtualmachines} and {@code get} and {@code list} on {@code virtualmachineinstances}, and the
 * kit's wrong-credentials test runs (a real server answers 401); the minimal VirtualMachine and
 * VirtualMachineInstance CRDs must be structural schemas a real server establishes; the agent's merge patch of the
 * run strategy goes through a real server's patch code; the namespace must exist; and the fake's stale status writes
 * get 409 Conflict (the mock accepts them), which the fake retries.
 *
 * <p>Still not checked: there is no real KubeVirt. The fake moves the VirtualMachineInstance through its phases as
 * virt-controller and virt-handler are described to, so this run does not prove that KubeVirt reports a stopped guest
 * as modelled (instance gone, or phase {@code Succeeded}/{@code Failed}); and the minimal CRDs keep every field, so
 * KubeVirt's own schema validation of {@code spec.runStrategy} is not applied to the agent's writes.
 */
@DisplayName("the kubevirt agent's conformance on a real API server (kube-api-test)")
class KubeVirtConformanceIT extends KubeVirtConformance {

    @RegisterExtension
    static final RealApiServer API = new RealApiServer("the kubevirt agent's conformance kit");

    private static String token;

    @BeforeAll
    static void start() {
        token = KubeConformance.realServerToken(API.client(), "remedy-kubevirt", List.of(
                KubeConformance.rule("kubevirt.io", List.of("virtualmachines"), "get", "list", "patch"),
                KubeConformance.rule("kubevirt.io", List.of("virtualmachineinstances"), "get", "list")));
        startKubeVirt(API.client());
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
