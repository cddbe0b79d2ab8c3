package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.nodeagent.NodeAgentContract;
import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.rules.PeerAnswer;
import dev.remedy.fence.kube.nodeagent.PeerCertificates;
import dev.remedy.spi.TimeSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Secret the operator creates ({@link PeerCertificates}) is one the agents load and talk mutual TLS with. */
@EnableKubernetesMockClient(crud = true)
class OperatorCertificatesTest {

    KubernetesClient client;

    @TempDir
    Path dir;

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** Writes the Secret's keys as the kubelet mounts them. */
    private Path mount(String into) throws Exception {
        Secret secret = client.secrets().inNamespace("remedy").withName(NodeAgentContract.TLS_SECRET).get();
        Path mounted = Files.createDirectories(dir.resolve(into));
        for (Map.Entry<String, String> e : secret.getData().entrySet()) {
            Files.write(mounted.resolve(e.getKey()), Base64.getDecoder().decode(e.getValue()));
        }
        return mounted;
    }

    @Test
    @DisplayName("agents with the operator's Secret answer each other; after the operator renews it, an agent that"
            + " reloads talks with one that started on the renewed Secret")
    void agentsTalkWithTheOperatorsSecret() throws Exception {
        PeerCertificates operator = new PeerCertificates(client, "remedy", TimeSource.system());
        assertThat(operator.ensure().action()).isEqualTo(PeerCertificates.Action.CREATED);
        Path first = mount("first");
        PeerTls server = TestPki.load(first);
        PeerTls asking = TestPki.load(mount("asking"));

        try (PeerServer peer = PeerServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), server,
                (node, boot) -> node.equals("sick") ? PeerAnswer.UNHEALTHY : PeerAnswer.HEALTHY, executor)) {
            HttpsPeerClient c = new HttpsPeerClient(asking, NodeAgentSettings.ofDefaults(), executor,
                    p -> Optional.of(peer.address()));
            PeerNode node = new PeerNode("peer", Map.of(), Optional.of("127.0.0.1"));
            assertThat(c.ask(node, "sick", Instant.EPOCH)).isEqualTo(PeerAnswer.UNHEALTHY);
            assertThat(c.ask(node, "worker-1", Instant.EPOCH)).isEqualTo(PeerAnswer.HEALTHY);

            client.secrets().inNamespace("remedy").withName(PeerCertificates.CA_SECRET).delete();
            assertThat(operator.ensure().action()).isEqualTo(PeerCertificates.Action.RENEWED);
            PeerTls restarted = TestPki.load(mount("restarted"));
            HttpsPeerClient renewed = new HttpsPeerClient(restarted, NodeAgentSettings.ofDefaults(), executor,
                    p -> Optional.of(peer.address()));
            assertThat(renewed.ask(node, "sick", Instant.EPOCH)).as("a new CA, before the server reloads")
                    .isEqualTo(PeerAnswer.NO_ANSWER);

            mount("first");
            assertThat(server.reloadIfChanged()).isTrue();
            assertThat(renewed.ask(node, "sick", Instant.EPOCH)).isEqualTo(PeerAnswer.UNHEALTHY);
        }
    }
}
