package dev.remedy.simulators.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The Redfish simulator over TLS")
class RedfishTlsTest {

    private RedfishSimulator sim;

    @BeforeEach
    void start() {
        sim = RedfishSimulator.start(RedfishSpec.builder().user("admin", "redfish-secret").systems("node-1")
                .tls(true).build());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    @DisplayName("serves HTTPS to a client that trusts the generated certificate through the exposed SSLContext")
    void trusted() {
        assertThat(sim.tls()).isTrue();
        assertThat(sim.baseUri().getScheme()).isEqualTo("https");
        TestClient client = new TestClient(sim.baseUri(),
                HttpClient.newBuilder().sslContext(sim.certificate().sslContext()).build());
        assertThat(client.json("/redfish/v1/Systems/node-1").get("PowerState").asText()).isEqualTo("On");
    }

    @Test
    @DisplayName("is refused by a client that trusts only the default certificate authorities")
    void untrusted() {
        TestClient client = new TestClient(sim.baseUri());
        assertThatThrownBy(() -> client.get("/redfish/v1/", TestClient.Auth.none()))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(SSLHandshakeException.class);
        assertThat(sim.requests()).isZero();
    }

    @Test
    @DisplayName("exposes the certificate for 127.0.0.1 and localhost, its PEM and its SHA-256 fingerprint")
    void certificate() throws Exception {
        SimulatorCertificate certificate = sim.certificate();
        X509Certificate x509 = certificate.certificate();
        x509.checkValidity();
        x509.verify(x509.getPublicKey());
        assertThat(x509.getSubjectX500Principal().getName()).isEqualTo("CN=" + SimulatorCertificate.COMMON_NAME);
        assertThat(x509.getSubjectAlternativeNames()).extracting(name -> (Object) name.get(1))
                .containsExactly((Object) "127.0.0.1", "localhost");
        assertThat(certificate.pem()).startsWith("-----BEGIN CERTIFICATE-----\n")
                .endsWith("\n-----END CERTIFICATE-----\n");
        String expected = HexFormat.ofDelimiter(":").withUpperCase()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(x509.getEncoded()));
        assertThat(certificate.sha256Fingerprint()).isEqualTo(expected).hasSize(95);
        assertThat(certificate.toString()).contains(expected);
    }

    @Test
    @DisplayName("generates a different certificate for each simulator")
    void fresh() {
        try (RedfishSimulator other = RedfishSimulator.start(RedfishSpec.builder().user("a", "b").tls(true).build())) {
            assertThat(other.certificate().sha256Fingerprint()).isNotEqualTo(sim.certificate().sha256Fingerprint());
        }
    }

    @Test
    @DisplayName("certificateWithoutSubjectAltNames: the certificate has a common name and no subject alternative name")
    void withoutSubjectAltNames() throws Exception {
        try (RedfishSimulator bare = RedfishSimulator.start(RedfishSpec.builder().user("admin", "redfish-secret")
                .systems("node-1").tls(true).certificateWithoutSubjectAltNames().build())) {
            assertThat(bare.certificate().certificate().getSubjectAlternativeNames()).isNull();
            assertThat(bare.certificate().certificate().getSubjectX500Principal().getName())
                    .contains(SimulatorCertificate.COMMON_NAME);
        }
        assertThat(sim.certificate().certificate().getSubjectAlternativeNames()).hasSize(2);
    }
}
