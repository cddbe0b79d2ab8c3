package dev.remedy.fence.kube.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.fence.kube.nodeagent.PeerCertificates.Action;
import dev.remedy.fence.kube.nodeagent.internal.PeerPki;
import dev.remedy.fence.kube.testing.RbacCheck;
import dev.remedy.test.FakeTimeSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
@DisplayName("PeerCertificates: the operator creates and renews the node agents' mTLS Secret")
class PeerCertificatesTest {

    private static final String NS = "remedy";

    KubernetesMockServer server;
    KubernetesClient client;
    private final FakeTimeSource time = new FakeTimeSource();

    private PeerCertificates certificates() {
        return new PeerCertificates(client, NS, time);
    }

    /** The operator's client: its requests are checked against deploy/20-rbac.yaml. */
    private KubernetesClient operatorClient() {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(client.getConfiguration())
                .withUserAgent(RbacCheck.USER_AGENT).build()).build();
    }

    private Secret secret(String name) {
        return client.secrets().inNamespace(NS).withName(name).get();
    }

    private static byte[] value(Secret s, String key) {
        return Base64.getDecoder().decode(s.getData().get(key));
    }

    private static X509Certificate certificate(Secret s, String key) {
        return PeerPki.certificate(value(s, key));
    }

    @Test
    @DisplayName("nothing there: a CA Secret and the agents' kubernetes.io/tls Secret, a P-256 certificate for TLS"
            + " server and client, a year long, signed by the CA the agents trust; the key in PKCS#8; every request"
            + " allowed by deploy/20-rbac.yaml")
    void createsBoth() throws Exception {
        PeerCertificates.Outcome outcome;
        try (KubernetesClient operator = operatorClient()) {
            outcome = new PeerCertificates(operator, NS, time).ensure();
        }

        assertThat(outcome.action()).isEqualTo(Action.CREATED);
        Secret tls = secret(NodeAgentContract.TLS_SECRET);
        Secret ca = secret(PeerCertificates.CA_SECRET);
        assertThat(tls.getType()).isEqualTo("kubernetes.io/tls");
        assertThat(tls.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
        assertThat(ca.getData()).containsOnlyKeys("ca.crt", "ca.key");
        assertThat(tls.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "remedy");
        assertThat(ca.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "remedy");
        assertThat(value(tls, "ca.crt")).isEqualTo(value(ca, "ca.crt"));
        X509Certificate leaf = certificate(tls, "tls.crt");
        X509Certificate authority = certificate(ca, "ca.crt");
        assertThat(PeerPki.signedBy(leaf, authority)).isTrue();
        assertThat(PeerPki.signedBy(leaf, leaf)).isFalse();
        assertThat(authority.getBasicConstraints()).isNotNegative();
        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        assertThat(leaf.getExtendedKeyUsage()).containsExactlyInAnyOrder("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(leaf.getNotAfter().toInstant()).isEqualTo(time.instant().plus(Duration.ofDays(365)));
        assertThat(outcome.notAfter()).contains(leaf.getNotAfter().toInstant());
        assertThat(leaf.getNotBefore().toInstant()).isBefore(time.instant());
        assertThat(new String(value(tls, "tls.key"), StandardCharsets.US_ASCII)).startsWith("-----BEGIN PRIVATE KEY");
        assertThat(PeerPki.privateKey(value(tls, "tls.key")).getAlgorithm()).isEqualTo("EC");
        assertThat(outcome.detail()).doesNotContain(tls.getData().get("tls.key")).doesNotContain("PRIVATE");
        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }

    @Test
    @DisplayName("current until 30 days before its end, then renewed by the same CA (an update deploy/20-rbac.yaml allows"
            + " by name); the CA Secret is not rewritten")
    void renewsWithTheSameCa() throws Exception {
        certificates().ensure();
        Secret first = secret(NodeAgentContract.TLS_SECRET);
        String caVersion = secret(PeerCertificates.CA_SECRET).getMetadata().getResourceVersion();

        time.advance(Duration.ofDays(334));
        assertThat(certificates().ensure().action()).isEqualTo(Action.CURRENT);
        assertThat(secret(NodeAgentContract.TLS_SECRET).getData()).isEqualTo(first.getData());

        time.advance(Duration.ofDays(2));
        PeerCertificates.Outcome renewed;
        try (KubernetesClient operator = operatorClient()) {
            renewed = new PeerCertificates(operator, NS, time).ensure();
        }

        assertThat(renewed.action()).isEqualTo(Action.RENEWED);
        assertThat(renewed.detail()).contains("within 30 days");
        Secret second = secret(NodeAgentContract.TLS_SECRET);
        assertThat(second.getData().get("tls.crt")).isNotEqualTo(first.getData().get("tls.crt"));
        assertThat(second.getData().get("tls.key")).isNotEqualTo(first.getData().get("tls.key"));
        assertThat(second.getData().get("ca.crt")).isEqualTo(first.getData().get("ca.crt"));
        assertThat(PeerPki.signedBy(certificate(second, "tls.crt"), certificate(first, "ca.crt"))).isTrue();
        assertThat(certificate(second, "tls.crt").getNotAfter().toInstant())
                .isEqualTo(time.instant().plus(Duration.ofDays(365)));
        assertThat(secret(PeerCertificates.CA_SECRET).getMetadata().getResourceVersion()).isEqualTo(caVersion);
        assertThat(certificates().ensure().action()).isEqualTo(Action.CURRENT);
        assertThat(RbacCheck.deniedRequests(server, client)).as("requests deploy/20-rbac.yaml does not allow")
                .isEmpty();
    }

    @Test
    @DisplayName("a Secret remedy did not create (no managed-by label, or cert-manager's) is left as it is, and no CA"
            + " is created beside it")
    void leavesOthersSecretsAlone() {
        Secret admins = new SecretBuilder().withNewMetadata().withName(NodeAgentContract.TLS_SECRET).endMetadata()
                .addToData("tls.crt", "YWRtaW4=").build();
        client.secrets().inNamespace(NS).resource(admins).create();

        PeerCertificates.Outcome outcome = certificates().ensure();

        assertThat(outcome.action()).isEqualTo(Action.LEFT_ALONE);
        assertThat(outcome.detail()).contains("remedy/remedy-node-agent-tls was not created by remedy");
        assertThat(secret(NodeAgentContract.TLS_SECRET).getData()).containsExactly(Map.entry("tls.crt", "YWRtaW4="));
        assertThat(secret(PeerCertificates.CA_SECRET)).isNull();

        client.secrets().inNamespace(NS).withName(NodeAgentContract.TLS_SECRET).delete();
        Secret issuedCa = new SecretBuilder().withNewMetadata().withName(PeerCertificates.CA_SECRET)
                .addToLabels("app.kubernetes.io/managed-by", "remedy")
                .addToAnnotations("cert-manager.io/certificate-name", "remedy-node-agent-ca").endMetadata()
                .addToData("ca.crt", "Y2E=").build();
        client.secrets().inNamespace(NS).resource(issuedCa).create();

        PeerCertificates.Outcome beside = certificates().ensure();

        assertThat(beside.action()).isEqualTo(Action.LEFT_ALONE);
        assertThat(beside.detail()).contains("issued by cert-manager");
        assertThat(secret(NodeAgentContract.TLS_SECRET)).isNull();
        assertThat(secret(PeerCertificates.CA_SECRET).getData()).containsExactly(Map.entry("ca.crt", "Y2E="));
    }

    @Test
    @DisplayName("a certificate that is not one, or not of the CA (its Secret deleted), is replaced at once")
    void replacesWhatIsNotCurrent() {
        certificates().ensure();
        Secret tls = secret(NodeAgentContract.TLS_SECRET);
        tls.getData().put("tls.crt", Base64.getEncoder().encodeToString("garbage".getBytes(StandardCharsets.UTF_8)));
        client.secrets().inNamespace(NS).resource(tls).update();

        PeerCertificates.Outcome garbage = certificates().ensure();

        assertThat(garbage.action()).isEqualTo(Action.RENEWED);
        assertThat(garbage.detail()).contains("missing or not a certificate");
        X509Certificate ca = certificate(secret(PeerCertificates.CA_SECRET), "ca.crt");
        assertThat(PeerPki.signedBy(certificate(secret(NodeAgentContract.TLS_SECRET), "tls.crt"), ca)).isTrue();

        client.secrets().inNamespace(NS).withName(PeerCertificates.CA_SECRET).delete();
        PeerCertificates.Outcome newCa = certificates().ensure();

        assertThat(newCa.action()).isEqualTo(Action.RENEWED);
        assertThat(newCa.detail()).contains("not signed by the CA");
        X509Certificate second = certificate(secret(PeerCertificates.CA_SECRET), "ca.crt");
        assertThat(second).isNotEqualTo(ca);
        Secret renewed = secret(NodeAgentContract.TLS_SECRET);
        assertThat(PeerPki.signedBy(certificate(renewed, "tls.crt"), second)).isTrue();
        assertThat(certificate(renewed, "ca.crt")).isEqualTo(second);
    }

    @Test
    @DisplayName("another replica created the agents' Secret first (409 Conflict): judged again, not an error")
    void conflictIsJudgedAgain() {
        server.expect().post().withPath("/api/v1/namespaces/remedy/secrets").andReturn(409,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"AlreadyExists\","
                        + "\"code\":409}").once();

        PeerCertificates.Outcome outcome = certificates().ensure();

        assertThat(outcome.action()).isEqualTo(Action.CREATED);
        Secret tls = secret(NodeAgentContract.TLS_SECRET);
        assertThat(PeerPki.signedBy(certificate(tls, "tls.crt"), certificate(secret(PeerCertificates.CA_SECRET),
                "ca.crt"))).isTrue();
    }
}
