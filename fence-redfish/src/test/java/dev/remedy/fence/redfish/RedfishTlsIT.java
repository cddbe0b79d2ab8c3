package dev.remedy.fence.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.redfish.internal.client.TlsTrust;
import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The redfish agent through a real TLS stack (nginx with an openssl certificate) in front of the simulator:
 * verification on by default refuses the unknown certificate; a CA file or the certificate's fingerprint makes
 * it trusted; ssl_insecure skips the check.
 */
class RedfishTlsIT {

    private static final String PASSWORD = "nginx-it-secret";

    @TempDir
    static Path dir;

    private static RedfishSimulator simulator;
    private static NginxTlsProxy nginx;

    @BeforeAll
    static void start() throws Exception {
        PeerPrograms.require("nginx", "nginx-light");
        PeerPrograms.require("openssl", "openssl");
        simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD).systems("node-1").build());
        nginx = NginxTlsProxy.start(dir, simulator.port());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (nginx != null) {
            nginx.close();
        }
        if (simulator != null) {
            simulator.close();
        }
    }

    private static FenceOutcome run(AgentConfig.Builder config, FenceAction action) throws InterruptedException {
        RedfishFenceAgentProvider provider = new RedfishFenceAgentProvider();
        try (FenceAgent agent = provider.create(config.build())) {
            return agent.execute(new FenceRequest(action, "it"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(10)));
        }
    }

    private static AgentConfig.Builder config() {
        return new RedfishFenceAgentProvider().configure().set("ip", "127.0.0.1")
                .set("ipport", Integer.toString(nginx.port())).set("username", "admin")
                .secret("password", Secret.of(PASSWORD)).set("poll_interval", "20ms");
    }

    @Test
    @DisplayName("verification is on by default: nginx's self-made certificate is refused and nothing is powered")
    void refusedByDefault() throws InterruptedException {
        FenceOutcome outcome = run(config(), FenceAction.OFF);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("TLS").contains("ca_file");
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("with ca_file the certificate is verified, host name included, and OFF goes through, confirmed")
    void caFile() throws InterruptedException {
        simulator.system("node-1").powerTarget().power(PowerState.ON);
        FenceOutcome outcome = run(config().set("ca_file", nginx.certificate().toString()), FenceAction.OFF);
        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("with tls_fingerprint exactly that certificate is trusted")
    void pinned() throws Exception {
        X509Certificate certificate;
        try (InputStream in = Files.newInputStream(nginx.certificate())) {
            certificate = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        FenceOutcome outcome = run(config().set("tls_fingerprint", TlsTrust.fingerprintOf(certificate)),
                FenceAction.STATUS);
        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
    }

    @Test
    @DisplayName("ssl_insecure skips verification (and warns), so even an unknown certificate is accepted")
    void insecure() throws InterruptedException {
        FenceOutcome outcome = run(config().set("ssl_insecure", "true"), FenceAction.STATUS);
        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
    }
}
