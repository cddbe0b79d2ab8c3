package dev.remedy.fence.kube.agent;

import dev.remedy.spi.config.AgentConfig;
import dev.remedy.fence.kube.testing.MinimalCrds;
import dev.remedy.spi.config.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The configurations the conformance tests of the Kubernetes-object agents give the kit. */
final class KubeConformance {

    /** A bearer token long enough for the kit's leak search, for the mock API server (which accepts any token). */
    static final String TOKEN = "remedy-conformance-token-7c1e94";

    /** How long a real API server may take to establish the test CRDs. */
    private static final Duration ESTABLISHED = Duration.ofSeconds(60);

    /** remedy's loggers: fence-kube's logging.properties keeps them at INFO, the kit reads every level. */
    private static final Logger REMEDY = Logger.getLogger("dev.remedy");
    /**
     * The JDK HTTP client's internal trace, which follows the root logger's level (the kit sets ALL): thousands of
     * lines a test about buffers and subscriptions, nothing of the agent's.
     */
    private static final Logger JDK_HTTP_TRACE = Logger.getLogger("jdk.internal.httpclient.debug");

    private KubeConformance() {
    }

    /** Lets every level of remedy's log lines through to the kit's capture, and keeps the JDK's HTTP trace out. */
    static void logForTheKit() {
        REMEDY.setLevel(Level.ALL);
        JDK_HTTP_TRACE.setLevel(Level.INFO);
    }

    /** Restores fence-kube's levels. */
    static void restoreLogging() {
        REMEDY.setLevel(Level.INFO);
        JDK_HTTP_TRACE.setLevel(null);
    }

    /**
     * A configuration that goes through the real parameter path: a kubeconfig file written into {@code dir} for the
     * server at {@code url}, {@code token} as a secret, a short poll interval.
     */
    static AgentConfig.Builder config(AgentConfig.Builder builder, Path dir, String file, String url, String token) {
        return builder.set("namespace", KubeObjects.NAMESPACE)
                .set("kubeconfig", KubeObjects.kubeconfig(dir, file, url).toString())
                .secret("token", Secret.of(token)).set("poll_interval", "20ms").set("request_timeout", "2s");
    }

    /**
     * Prepares a real API server for an agent's conformance run: the test namespace and the CRDs, established, and
     * a token of ServiceAccount {@code account} allowed only {@code rules} ({@link #serviceAccountToken}).
     */
    static String realServerToken(KubernetesClient client, String account, List<PolicyRule> rules) {
        KubeObjects.installCrds(client);
        MinimalCrds.awaitEstablished(client, ESTABLISHED, KubeObjects.RESOURCES);
        return serviceAccountToken(client, account, rules);
    }

    /**
     * For a real API server (which, unlike the mock, checks tokens and RBAC): creates ServiceAccount {@code name} in
     * the test namespace, allowed by a Role only {@code rules}, and returns a token of it from the TokenRequest API.
     */
    static String serviceAccountToken(KubernetesClient client, String name, List<PolicyRule> rules) {
        String namespace = KubeObjects.NAMESPACE;
        client.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(name).endMetadata().build()).create();
        client.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName(name)
                .endMetadata().withRules(rules).build()).create();
        client.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
                .withName(name).endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role").withName(name).endRoleRef().addNewSubject().withKind("ServiceAccount")
                .withName(name).withNamespace(namespace).endSubject().build()).create();
        return client.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(new TokenRequestBuilder()
                .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
    }

    /** A rule allowing {@code verbs} on {@code resources} of API group {@code group}. */
    static PolicyRule rule(String group, List<String> resources, String... verbs) {
        return new PolicyRuleBuilder().withApiGroups(group).withResources(resources).withVerbs(verbs).build();
    }

    /** The URL of an API server that is not there: a loopback port that was free a moment ago. */
    static String closedPort() {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "https://127.0.0.1:" + probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free loopback port", e);
        }
    }
}
