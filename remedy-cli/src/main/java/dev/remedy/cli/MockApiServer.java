package dev.remedy.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;

/**
 * fabric8's mock Kubernetes API server in CRUD mode, in this JVM, on a free port of 127.0.0.1, over plain HTTP: it
 * stores what is created and serves it back, with watches, resourceVersion conflicts, JSON and merge patches. It is
 * not a kube-apiserver: no admission, no garbage collection, no controllers, no authentication.
 */
final class MockApiServer implements AutoCloseable {

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private MockApiServer(KubernetesMockServer server) {
        this.server = server;
        this.client = server.createClient();
    }

    /** Starts a server with nothing stored. */
    static MockApiServer start() {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(List.of()), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        return new MockApiServer(server);
    }

    /** The server's URL, {@code http://127.0.0.1:PORT}. */
    String url() {
        return "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
    }

    /** A client of the server (closed with it). */
    KubernetesClient client() {
        return client;
    }

    /** Closes the client and stops the server. */
    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
