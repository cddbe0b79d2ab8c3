package dev.remedy.simulators.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.simulators.redfish.TestClient.Auth;
import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Faults injected into the Redfish simulator")
class RedfishFaultsTest {

    private static final String NODE_1 = "/redfish/v1/Systems/node-1";
    private static final String RESET = NODE_1 + "/Actions/ComputerSystem.Reset";
    private static final String SESSIONS = "/redfish/v1/SessionService/Sessions";

    private final FakeTimeSource clock = FakeTimeSource.nearOverflow(Duration.ofMinutes(5));
    private RedfishSimulator sim;
    private TestClient client;

    @BeforeEach
    void start() {
        sim = RedfishSimulator.start(RedfishSpec.builder().user("admin", "redfish-secret").systems("node-1")
                .nanoClock(clock::nanoTime).build());
        client = new TestClient(sim.baseUri());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    @DisplayName("slowResponses delays every answer by at least the delay, until set back to zero")
    void slowResponses() {
        sim.faults().slowResponses(Duration.ofMillis(300));
        long started = System.nanoTime();
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(sim.faults().slowResponses()).isEqualTo(Duration.ofMillis(300));

        sim.faults().slowResponses(Duration.ZERO);
        started = System.nanoTime();
        client.get(NODE_1, TestClient.ADMIN);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(300));
    }

    @Test
    @DisplayName("basicBeforeRouting: 401 without valid Basic even on the root and a session POST; the root advertises"
            + " no sessions; clear() restores them")
    void basicBeforeRouting() {
        sim.faults().basicBeforeRouting(true);
        assertThat(client.get("/redfish/v1/", Auth.none()).statusCode()).isEqualTo(401);
        assertThat(client.post(SESSIONS, "{\"UserName\": \"admin\", \"Password\": \"redfish-secret\"}",
                Auth.none()).statusCode()).isEqualTo(401);
        assertThat(client.get(NODE_1, Auth.basic("admin", "wrong")).statusCode()).isEqualTo(401);
        HttpResponse<String> root = client.get("/redfish/v1/", TestClient.ADMIN);
        assertThat(root.statusCode()).isEqualTo(200);
        JsonNode advertised = TestClient.parse(root);
        assertThat(advertised.has("SessionService")).isFalse();
        assertThat(advertised.path("Links").has("Sessions")).isFalse();
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);

        sim.faults().clear();
        JsonNode normal = TestClient.parse(client.get("/redfish/v1/", Auth.none()));
        assertThat(normal.path("Links").path("Sessions").path("@odata.id").asText()).isEqualTo(SESSIONS);
        assertThat(normal.has("SessionService")).isTrue();
    }

    @Test
    @DisplayName("unansweredNext and unanswered(path) hold requests without an answer and without acting on them")
    void unanswered() throws Exception {
        sim.faults().unansweredNext(1).unanswered(RESET, 1);
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("admin:redfish-secret".getBytes(
                java.nio.charset.StandardCharsets.UTF_8));
        java.net.http.HttpRequest get = java.net.http.HttpRequest.newBuilder(sim.baseUri().resolve(NODE_1))
                .timeout(Duration.ofMillis(300)).header("Authorization", basic).GET().build();
        assertThatThrownBy(() -> http.send(get, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(java.net.http.HttpTimeoutException.class);
        assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        java.net.http.HttpRequest post = java.net.http.HttpRequest.newBuilder(sim.baseUri().resolve(RESET))
                .timeout(Duration.ofMillis(300)).header("Authorization", basic).header("Content-Type",
                        "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "{\"ResetType\": \"ForceOff\"}")).build();
        assertThatThrownBy(() -> http.send(post, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(java.net.http.HttpTimeoutException.class);
        assertThat(sim.system("node-1").resets()).as("an unanswered Reset is not acted on").isEmpty();
        assertThat(http.send(post, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(204);
        assertThat(sim.system("node-1").resets()).containsExactly("ForceOff");
        assertThat(sim.requestLog()).extracting(RedfishRequest::status).containsExactly(0, 200, 0, 204);
        sim.faults().clear();
    }

    @Test
    @DisplayName("failNext answers the next requests with the status and a Redfish error body, whatever the path")
    void failNext() {
        sim.faults().failNext(2, 500).failNext(1, 404);
        HttpResponse<String> first = client.get("/redfish/v1/", Auth.none());
        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(TestClient.parse(first).at("/error/code").asText()).isEqualTo("Base.1.8.InternalError");
        assertThat(client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN).statusCode()).isEqualTo(500);
        HttpResponse<String> third = client.get(NODE_1, TestClient.ADMIN);
        assertThat(third.statusCode()).isEqualTo(404);
        assertThat(TestClient.parse(third).at("/error/code").asText()).isEqualTo("Base.1.8.GeneralError");
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);
        assertThat(sim.system("node-1").resets()).as("a failed Reset never ran").isEmpty();
        assertThat(sim.requests()).isEqualTo(4);
        assertThatThrownBy(() -> sim.faults().failNext(1, 200)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("200");
    }

    @Test
    @DisplayName("serviceUnavailable answers 503 with Retry-After in whole seconds, rounded up")
    void serviceUnavailable() {
        sim.faults().serviceUnavailable(2, Duration.ofMillis(1500));
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = client.get(NODE_1, TestClient.ADMIN);
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
            assertThat(TestClient.parse(response).at("/error/code").asText())
                    .isEqualTo("Base.1.8.ServiceTemporarilyUnavailable");
        }
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);
    }

    @Test
    @DisplayName("expireSessions makes every current token answer 401, while new sessions work")
    void expireSessions() {
        String body = "{\"UserName\": \"admin\", \"Password\": \"redfish-secret\"}";
        String token = client.post(SESSIONS, body, Auth.none()).headers().firstValue("X-Auth-Token").orElseThrow();
        assertThat(client.get(NODE_1, Auth.token(token)).statusCode()).isEqualTo(200);

        sim.faults().expireSessions();
        HttpResponse<String> expired = client.get(NODE_1, Auth.token(token));
        assertThat(expired.statusCode()).isEqualTo(401);
        assertThat(TestClient.parse(expired).at("/error/message").asText()).contains("X-Auth-Token");
        assertThat(sim.activeSessions()).isZero();

        String fresh = client.post(SESSIONS, body, Auth.none()).headers().firstValue("X-Auth-Token").orElseThrow();
        assertThat(client.get(NODE_1, Auth.token(fresh)).statusCode()).isEqualTo(200);
        assertThat(sim.sessionsCreated()).isEqualTo(2);
    }

    @Test
    @DisplayName("invalidJsonNext breaks the next bodies, skipping answers that have none")
    void invalidJson() {
        sim.faults().invalidJsonNext(2);
        assertThat(client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN).statusCode())
                .as("204 has no body to break").isEqualTo(204);
        HttpResponse<String> broken = client.get(NODE_1, TestClient.ADMIN);
        assertThat(broken.statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> TestClient.parse(broken)).hasMessageContaining("not JSON");
        assertThat(client.get("/redfish/v1/", Auth.none()).body()).doesNotEndWith("}");
        assertThat(TestClient.parse(client.get(NODE_1, TestClient.ADMIN)).get("PowerState").asText())
                .isEqualTo("Off");
    }

    @Test
    @DisplayName("asyncResets answers 202 with a task monitor that answers 202 until the task completes, then 204")
    void asyncResets() {
        SimulatedSystem node = sim.system("node-1");
        sim.faults().asyncResets(Duration.ofSeconds(5));
        assertThat(sim.faults().asyncResets()).hasValue(Duration.ofSeconds(5));

        HttpResponse<String> accepted = client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN);
        assertThat(accepted.statusCode()).isEqualTo(202);
        String monitor = accepted.headers().firstValue("Location").orElseThrow();
        assertThat(monitor).startsWith("/redfish/v1/TaskService/TaskMonitors/");
        JsonNode task = TestClient.parse(accepted);
        assertThat(task.get("TaskState").asText()).isEqualTo("Running");
        assertThat(task.get("TaskMonitor").asText()).isEqualTo(monitor);

        HttpResponse<String> running = client.get(monitor, TestClient.ADMIN);
        assertThat(running.statusCode()).isEqualTo(202);
        assertThat(TestClient.parse(running).get("TaskState").asText()).isEqualTo("Running");
        assertThat(client.json(NODE_1).get("PowerState").asText()).isEqualTo("On");
        assertThat(node.resets()).containsExactly("ForceOff");

        clock.advance(Duration.ofSeconds(5));
        assertThat(client.get(monitor, TestClient.ADMIN).statusCode()).isEqualTo(204);
        assertThat(client.get(monitor, TestClient.ADMIN).statusCode()).as("stays complete").isEqualTo(204);
        assertThat(client.json(task.get("@odata.id").asText()).get("TaskState").asText()).isEqualTo("Completed");
        assertThat(client.json(NODE_1).get("PowerState").asText()).isEqualTo("Off");
        assertThat(node.powerTarget().history()).containsExactly(PowerState.OFF);
        assertThat(client.get(monitor, Auth.none()).statusCode()).as("monitors need credentials").isEqualTo(401);
        assertThat(client.get("/redfish/v1/TaskService/TaskMonitors/99", TestClient.ADMIN).statusCode())
                .isEqualTo(404);

        sim.faults().asyncResets(false);
        assertThat(client.post(RESET, "{\"ResetType\": \"On\"}", TestClient.ADMIN).statusCode()).isEqualTo(204);
    }

    @Test
    @DisplayName("asyncResets(true) runs each task for the default duration")
    void asyncDefault() {
        sim.faults().asyncResets(true);
        assertThat(sim.faults().asyncResets()).hasValue(RedfishFaults.DEFAULT_TASK_DURATION);
        String monitor = client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN).headers()
                .firstValue("Location").orElseThrow();
        clock.advance(RedfishFaults.DEFAULT_TASK_DURATION);
        assertThat(client.get(monitor, TestClient.ADMIN).statusCode()).isEqualTo(204);
        assertThat(sim.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("echoCredentials answers a login with its own body and a Basic request with its header, both as 400")
    void echoCredentials() {
        sim.faults().echoCredentials(true);
        String credentials = "{\"UserName\": \"admin\", \"Password\": \"redfish-secret\"}";
        HttpResponse<String> login = client.post(SESSIONS, credentials, Auth.none());
        assertThat(login.statusCode()).isEqualTo(400);
        assertThat(TestClient.parse(login).get("Password").asText()).isEqualTo("redfish-secret");
        assertThat(sim.activeSessions()).as("the echoed login opened no session").isZero();
        HttpResponse<String> basic = client.get(NODE_1, TestClient.ADMIN);
        assertThat(basic.statusCode()).isEqualTo(400);
        assertThat(TestClient.parse(basic).at("/error/message").asText())
                .contains("Authorization: Basic YWRtaW46cmVkZmlzaC1zZWNyZXQ=");
        assertThat(client.get("/redfish/v1/", Auth.none()).statusCode()).as("no credentials, no echo").isEqualTo(200);
        assertThat(sim.faults().echoCredentials()).isTrue();

        sim.faults().clear();
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);
        assertThat(sim.faults().echoCredentials()).isFalse();
    }

    @Test
    @DisplayName("override answers every request of its path with exactly its status, headers and bytes")
    void override() {
        byte[] notUtf8 = {'{', '"', (byte) 0xC3, (byte) 0x28, '"'};
        sim.faults().override(NODE_1, 202, Map.of("Location", "not a uri", "Retry-After", "99999999999"), notUtf8);
        HttpResponse<byte[]> get = client.bytes(NODE_1, Auth.none());
        assertThat(get.statusCode()).as("before authentication").isEqualTo(202);
        assertThat(get.body()).isEqualTo(notUtf8);
        assertThat(get.headers().firstValue("Location")).hasValue("not a uri");
        assertThat(get.headers().firstValue("Retry-After")).hasValue("99999999999");
        assertThat(get.headers().firstValue("Content-Type")).isEmpty();
        assertThat(client.post(NODE_1, "{}", TestClient.ADMIN).statusCode()).as("any method").isEqualTo(202);
        assertThat(client.get("/redfish/v1/", Auth.none()).statusCode()).as("other paths").isEqualTo(200);
        assertThat(sim.requestLog()).extracting(RedfishRequest::status).containsExactly(202, 202, 200);

        sim.faults().override(NODE_1, 204, Map.of(), null);
        assertThat(client.get(NODE_1, TestClient.ADMIN).body()).isEmpty();
        sim.faults().clear();
        assertThat(client.json(NODE_1).get("Id").asText()).isEqualTo("node-1");
        assertThatThrownBy(() -> sim.faults().override(NODE_1, 101, Map.of(), null)).hasMessageContaining("101");
        assertThatThrownBy(() -> sim.faults().override(NODE_1, 200, Map.of("X", "a\r\nInjected: 1"), null))
                .hasMessageContaining("line break");
    }

    @Test
    @DisplayName("oversizedBody pads a resource to the size asked for, with or without Content-Length, and counts it")
    void oversizedBody() {
        for (boolean declared : new boolean[] {true, false}) {
            sim.faults().clear().oversizedBody(NODE_1, 300_000, declared);
            long before = sim.faults().oversizedBytesSent();
            HttpResponse<String> response = client.get(NODE_1, TestClient.ADMIN);
            assertThat(response.body()).hasSize(300_000);
            assertThat(response.headers().firstValue("Content-Length").isPresent()).isEqualTo(declared);
            JsonNode system = TestClient.parse(response);
            assertThat(system.get("Id").asText()).as("still the resource").isEqualTo("node-1");
            assertThat(system.get("Padding").asText()).matches("x+");
            assertThat(sim.faults().oversizedBytesSent() - before).isEqualTo(300_000);
        }
        assertThat(client.get(NODE_1, Auth.none()).statusCode()).as("only successful GETs").isEqualTo(401);
        assertThat(client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN).statusCode())
                .isEqualTo(204);
    }

    @Test
    @DisplayName("an oversized body stops when the client stops reading: the simulator never writes it all")
    void oversizedBodyStops() throws Exception {
        long huge = 1L << 40;
        sim.faults().oversizedBody(NODE_1, huge, false);
        try (InputStream body = client.stream(NODE_1, TestClient.ADMIN)) {
            assertThat(body.readNBytes(1 << 20)).hasSize(1 << 20);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (sim.faults().oversizedBytesSent() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(sim.faults().oversizedBytesSent()).as("bytes written before the client went away")
                .isGreaterThanOrEqualTo(1 << 20).isLessThan(huge);
    }

    @Test
    @DisplayName("clear removes every fault but keeps the sessions")
    void clear() {
        sim.faults().failNext(3, 500).invalidJsonNext(3).slowResponses(Duration.ofSeconds(1)).asyncResets(true)
                .clear();
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);
        assertThat(TestClient.parse(client.get(NODE_1, TestClient.ADMIN)).get("Id").asText()).isEqualTo("node-1");
        assertThat(client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN).statusCode()).isEqualTo(204);
        assertThat(sim.faults().toString()).contains("planned=0");
    }

    @Test
    @DisplayName("refuses negative counts and durations, naming the setting")
    void validation() {
        assertThatThrownBy(() -> sim.faults().failNext(-1, 500)).hasMessageContaining("failNext");
        assertThatThrownBy(() -> sim.faults().serviceUnavailable(1, Duration.ofSeconds(-1)))
                .hasMessageContaining("retryAfter");
        assertThatThrownBy(() -> sim.faults().invalidJsonNext(-2)).hasMessageContaining("invalidJsonNext");
        assertThatThrownBy(() -> sim.faults().slowResponses(Duration.ofMillis(-1))).hasMessageContaining("slow");
        assertThatThrownBy(() -> sim.faults().asyncResets(Duration.ofMillis(-1))).hasMessageContaining("taskDuration");
    }
}
