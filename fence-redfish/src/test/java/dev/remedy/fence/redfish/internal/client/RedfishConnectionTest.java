package dev.remedy.fence.redfish.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.redfish.RedfishRequest;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RedfishConnectionTest {

    private static final String RESET = "/redfish/v1/Systems/node-1/Actions/ComputerSystem.Reset";

    private RedfishSimulator simulator;
    private ExecutorService executor;
    private RedfishConnection connection;

    @BeforeEach
    void start() {
        simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", "conn-secret").systems("node-1")
                .build());
        executor = Executors.newSingleThreadExecutor();
        HttpClient http = HttpClient.newBuilder().executor(executor).version(HttpClient.Version.HTTP_1_1).build();
        connection = new RedfishConnection(http, URI.create("http://127.0.0.1:" + simulator.port()), "admin",
                Secret.of("conn-secret"), AuthMode.SESSION, Duration.ofSeconds(5), 1 << 20,
                System.nanoTime() + Duration.ofSeconds(10).toNanos(), executor);
        connection.login(Optional.empty(), true).join();
    }

    @AfterEach
    void stop() {
        connection.close().join();
        executor.shutdownNow();
        simulator.close();
    }

    @Test
    @DisplayName("a POST whose kept-alive connection the service dropped unanswered is sent once more, and acts once")
    void droppedPostIsSentAgain() {
        simulator.clearRequestLog();
        simulator.faults().dropConnectionsNext(1);

        connection.post(RESET, Map.of("ResetType", "ForceOff")).join();

        assertThat(simulator.requestLog()).extracting(RedfishRequest::method, RedfishRequest::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("POST", 0),
                        org.assertj.core.groups.Tuple.tuple("POST", 204));
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(connection.requests()).isEqualTo(3);
    }

    @Test
    @DisplayName("a session token that cannot be sent back fails the login as malformed, without showing the token")
    void unusableToken() {
        String token = "secret token";
        simulator.faults().override("/redfish/v1/SessionService/Sessions", 201, Map.of("X-Auth-Token", token,
                "Location", "/redfish/v1/SessionService/Sessions/9"), null);
        assertThatThrownBy(() -> connection.login(Optional.empty(), true).join()).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(RedfishException.class).hasMessageStartingWith("malformed Redfish response: ")
                .hasMessageContaining("X-Auth-Token (12 characters)").hasMessageNotContaining("secret token");
    }

    @Test
    @DisplayName("links name paths on the configured service, whatever host they name; broken ones are malformed")
    void linksStayOnTheService() {
        String base = "http://127.0.0.1:" + simulator.port();
        assertThat(connection.resolve("https://198.51.100.9:8443/redfish/v1/Systems/1?$expand=.")).hasToString(base
                + "/redfish/v1/Systems/1?$expand=.");
        assertThat(connection.resolve("redfish/v1/Systems/é")).hasToString(base + "/redfish/v1/Systems/%C3%A9");
        assertThatThrownBy(() -> connection.resolve("/a b")).isInstanceOf(RedfishException.class)
                .hasMessageContaining("'/a b', which is not a URI reference");
        assertThatThrownBy(() -> connection.resolve("mailto:admin@example.com")).isInstanceOf(RedfishException.class)
                .hasMessageContaining("names no path");
    }

    @Test
    @DisplayName("a POST dropped twice fails as a transport error: one resend, no more")
    void droppedTwiceFails() {
        simulator.faults().dropConnectionsNext(2);

        assertThatThrownBy(() -> connection.post(RESET, Map.of("ResetType", "ForceOff")).join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(RedfishException.class)
                .hasMessageContaining("transport error");
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.ON);
    }
}
