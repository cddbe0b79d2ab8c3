package dev.remedy.simulators.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.simulators.redfish.TestClient.Auth;
import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The Redfish simulator")
class RedfishSimulatorTest {

    private static final String NODE_1 = "/redfish/v1/Systems/node-1";
    private static final String RESET = NODE_1 + "/Actions/ComputerSystem.Reset";

    private final FakeTimeSource clock = FakeTimeSource.nearOverflow(Duration.ofMinutes(5));
    private RedfishSimulator sim;
    private TestClient client;

    @BeforeEach
    void start() {
        sim = RedfishSimulator.start(RedfishSpec.builder()
                .user("admin", "redfish-secret")
                .user("operator", "operator-secret")
                .systems("node-1", "node-2", "node-3")
                .maxSessions(2)
                .nanoClock(clock::nanoTime)
                .build());
        client = new TestClient(sim.baseUri());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private String ids(JsonNode collection) {
        List<String> ids = new ArrayList<>();
        collection.get("Members").forEach(m -> ids.add(m.get("@odata.id").asText()));
        return String.join(",", ids);
    }

    @Test
    @DisplayName("binds 127.0.0.1 on a free port and serves plain HTTP unless told otherwise")
    void binding() {
        assertThat(sim.baseUri().toString()).matches("http://127\\.0\\.0\\.1:\\d+");
        assertThat(sim.serviceRoot()).isEqualTo(sim.baseUri().resolve("/redfish/v1/"));
        assertThat(sim.tls()).isFalse();
        assertThatThrownBy(sim::certificate).isInstanceOf(IllegalStateException.class).hasMessageContaining("tls(true)");
    }

    @Test
    @DisplayName("serves the version document and the service root without credentials, with links that resolve")
    void serviceRoot() {
        JsonNode versions = TestClient.parse(client.get("/redfish", Auth.none()));
        assertThat(versions.get("v1").asText()).isEqualTo("/redfish/v1/");

        HttpResponse<String> response = client.get("/redfish/v1/", Auth.none());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.headers().firstValue("OData-Version")).hasValue("4.0");
        JsonNode root = TestClient.parse(response);
        assertThat(root.get("@odata.id").asText()).isEqualTo("/redfish/v1/");
        assertThat(root.get("@odata.type").asText()).startsWith("#ServiceRoot.");
        assertThat(root.get("RedfishVersion").asText()).isEqualTo("1.17.0");
        assertThat(root.get("UUID").asText()).hasSize(36);
        assertThat(root.has("PowerEquipment")).as("no PDU configured").isFalse();
        for (String link : List.of(root.at("/Systems/@odata.id").asText(), root.at("/SessionService/@odata.id").asText(),
                root.at("/Links/Sessions/@odata.id").asText())) {
            assertThat(client.json(link).get("@odata.id").asText()).isEqualTo(link);
        }
        assertThat(TestClient.parse(client.get("/redfish/v1", Auth.none())).get("@odata.id").asText())
                .as("no trailing slash").isEqualTo("/redfish/v1/");
    }

    @Test
    @DisplayName("lists the systems in order and describes each with PowerState and its Reset action")
    void systems() {
        JsonNode systems = client.json("/redfish/v1/Systems");
        assertThat(systems.get("@odata.type").asText()).isEqualTo("#ComputerSystemCollection.ComputerSystemCollection");
        assertThat(systems.get("Members@odata.count").asInt()).isEqualTo(3);
        assertThat(ids(systems)).isEqualTo(NODE_1 + ",/redfish/v1/Systems/node-2,/redfish/v1/Systems/node-3");

        sim.system("node-2").powerTarget().power(PowerState.OFF);
        sim.system("node-1").allowableResetTypes(List.of("On", "ForceOff"));
        JsonNode node1 = client.json(NODE_1);
        assertThat(node1.get("Id").asText()).isEqualTo("node-1");
        assertThat(node1.get("Name").asText()).isNotBlank();
        assertThat(node1.get("@odata.type").asText()).startsWith("#ComputerSystem.v1_");
        assertThat(node1.get("PowerState").asText()).isEqualTo("On");
        assertThat(node1.get("UUID").asText()).isEqualTo(sim.system("node-1").uuid().toString());
        JsonNode reset = node1.at("/Actions/#ComputerSystem.Reset");
        assertThat(reset.get("target").asText()).isEqualTo(RESET);
        assertThat(reset.get("ResetType@Redfish.AllowableValues").toString()).isEqualTo("[\"On\",\"ForceOff\"]");
        assertThat(client.json("/redfish/v1/Systems/node-2").get("PowerState").asText()).isEqualTo("Off");
        assertThat(sim.systems()).extracting(SimulatedSystem::id).containsExactly("node-1", "node-2", "node-3");
    }

    @Test
    @DisplayName("accepts HTTP Basic on every call, counting no session")
    void basicAuth() {
        assertThat(client.get(NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(200);
        assertThat(client.get(NODE_1, Auth.basic("operator", "operator-secret")).statusCode()).isEqualTo(200);
        assertThat(sim.sessionsCreated()).isZero();
        assertThat(sim.requestLog()).extracting(RedfishRequest::auth)
                .containsExactly(RedfishRequest.Auth.BASIC, RedfishRequest.Auth.BASIC);
    }

    @Test
    @DisplayName("refuses missing, wrong and malformed credentials with 401, an error body and a Basic challenge")
    void unauthorized() {
        for (Auth auth : List.of(Auth.none(), Auth.basic("admin", "wrong"), Auth.basic("nobody", "redfish-secret"),
                Auth.token("not-a-token"), request -> request.header("Authorization", "Basic %%%"))) {
            HttpResponse<String> response = client.get(NODE_1, auth);
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"redfish\"");
            assertThat(TestClient.parse(response).at("/error/code").asText()).startsWith("Base.1.8.");
        }
        assertThat(client.get("/redfish/v1/Nowhere", Auth.none()).statusCode()).as("auth before lookup")
                .isEqualTo(401);
    }

    @Test
    @DisplayName("creates a session with token and Location, serves calls with the token, and logs out with DELETE")
    void sessions() {
        HttpResponse<String> created = client.post("/redfish/v1/SessionService/Sessions",
                "{\"UserName\": \"admin\", \"Password\": \"redfish-secret\"}", Auth.none());
        assertThat(created.statusCode()).isEqualTo(201);
        String token = created.headers().firstValue("X-Auth-Token").orElseThrow();
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("/redfish/v1/SessionService/Sessions/");
        JsonNode session = TestClient.parse(created);
        assertThat(session.get("@odata.id").asText()).isEqualTo(location);
        assertThat(session.get("UserName").asText()).isEqualTo("admin");
        assertThat(session.toString()).doesNotContain("redfish-secret").doesNotContain(token);
        assertThat(sim.activeSessions()).isEqualTo(1);
        assertThat(sim.sessionsCreated()).isEqualTo(1);

        assertThat(client.get(NODE_1, Auth.token(token)).statusCode()).isEqualTo(200);
        JsonNode list = TestClient.parse(client.get("/redfish/v1/SessionService/Sessions", Auth.token(token)));
        assertThat(ids(list)).isEqualTo(location);
        assertThat(client.get(location, Auth.token(token)).statusCode()).isEqualTo(200);

        assertThat(client.delete(location, Auth.token(token)).statusCode()).isEqualTo(204);
        assertThat(sim.activeSessions()).isZero();
        assertThat(client.get(NODE_1, Auth.token(token)).statusCode()).as("logged out").isEqualTo(401);
        assertThat(client.delete(location, TestClient.ADMIN).statusCode()).as("already gone").isEqualTo(404);
        assertThat(sim.requestLog()).extracting(RedfishRequest::auth).contains(RedfishRequest.Auth.SESSION);
    }

    @Test
    @DisplayName("refuses a session for wrong credentials with 401 and for a body without them with 400")
    void sessionRefused() {
        HttpResponse<String> wrong = client.post("/redfish/v1/SessionService/Sessions",
                "{\"UserName\": \"admin\", \"Password\": \"guess\"}", Auth.none());
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(TestClient.parse(wrong).at("/error/@Message.ExtendedInfo/0/MessageId").asText())
                .startsWith("Base.1.8.");
        assertThat(client.post("/redfish/v1/SessionService/Sessions", "{\"UserName\": \"admin\"}", Auth.none())
                .statusCode()).isEqualTo(400);
        HttpResponse<String> broken = client.post("/redfish/v1/SessionService/Sessions", "{\"UserName\":", Auth.none());
        assertThat(broken.statusCode()).isEqualTo(400);
        assertThat(TestClient.parse(broken).at("/error/code").asText()).isEqualTo("Base.1.8.MalformedJSON");
        assertThat(sim.sessionsCreated()).isZero();
    }

    @Test
    @DisplayName("answers 503 SessionLimitExceeded beyond maxSessions, and has room again after a logout")
    void sessionLimit() {
        String body = "{\"UserName\": \"operator\", \"Password\": \"operator-secret\"}";
        String first = client.post("/redfish/v1/SessionService/Sessions", body, Auth.none()).headers()
                .firstValue("Location").orElseThrow();
        assertThat(client.post("/redfish/v1/SessionService/Sessions", body, Auth.none()).statusCode()).isEqualTo(201);
        HttpResponse<String> third = client.post("/redfish/v1/SessionService/Sessions", body, Auth.none());
        assertThat(third.statusCode()).isEqualTo(503);
        assertThat(TestClient.parse(third).at("/error/code").asText()).isEqualTo("Base.1.8.SessionLimitExceeded");
        assertThat(sim.activeSessions()).isEqualTo(2);

        assertThat(client.delete(first, TestClient.ADMIN).statusCode()).isEqualTo(204);
        assertThat(client.post("/redfish/v1/SessionService/Sessions", body, Auth.none()).statusCode()).isEqualTo(201);
        assertThat(sim.sessionsCreated()).isEqualTo(3);
    }

    @Test
    @DisplayName("applies each ResetType to the machine and records it")
    void resetSemantics() {
        SimulatedSystem node = sim.system("node-1");
        assertThat(client.post(RESET, "{\"ResetType\": \"ForceOff\"}", TestClient.ADMIN).statusCode()).isEqualTo(204);
        assertThat(node.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(client.json(NODE_1).get("PowerState").asText()).isEqualTo("Off");
        reset("On");
        reset("GracefulShutdown");
        reset("ForceOn");
        reset("PushPowerButton");
        assertThat(node.powerTarget().power()).isEqualTo(PowerState.OFF);
        reset("PushPowerButton");
        assertThat(node.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON, PowerState.OFF,
                PowerState.ON, PowerState.OFF, PowerState.ON);

        node.powerTarget().clearHistory();
        reset("ForceRestart");
        reset("GracefulRestart");
        reset("Nmi");
        assertThat(node.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON, PowerState.OFF,
                PowerState.ON);
        assertThat(node.powerTarget().power()).isEqualTo(PowerState.ON);
        assertThat(node.resets()).containsExactly("ForceOff", "On", "GracefulShutdown", "ForceOn", "PushPowerButton",
                "PushPowerButton", "ForceRestart", "GracefulRestart", "Nmi");
        assertThat(sim.system("node-2").resets()).isEmpty();
    }

    private void reset(String type) {
        HttpResponse<String> response = client.post(RESET, "{\"ResetType\": \"" + type + "\"}", TestClient.ADMIN);
        assertThat(response.statusCode()).as("%s: %s", type, response.body()).isEqualTo(204);
    }

    @Test
    @DisplayName("refuses a ResetType outside AllowableValues, a missing one and a broken body with 400, changing nothing")
    void resetRefused() {
        SimulatedSystem node = sim.system("node-1")
                .allowableResetTypes(List.of("On", "ForceOff", "GracefulShutdown", "ForceRestart"));
        for (String type : List.of("PushPowerButton", "Explode", "forceoff")) {
            HttpResponse<String> response = client.post(RESET, "{\"ResetType\": \"" + type + "\"}", TestClient.ADMIN);
            assertThat(response.statusCode()).isEqualTo(400);
            JsonNode error = TestClient.parse(response).get("error");
            assertThat(error.get("code").asText()).isEqualTo("Base.1.8.ActionParameterNotSupported");
            assertThat(error.get("message").asText()).contains(type).contains("ForceRestart");
            assertThat(error.at("/@Message.ExtendedInfo/0/MessageId").asText())
                    .isEqualTo("Base.1.8.ActionParameterValueNotInList");
            assertThat(error.at("/@Message.ExtendedInfo/0/Message").asText()).isNotBlank();
        }
        assertThat(TestClient.parse(client.post(RESET, "{}", TestClient.ADMIN)).at("/error/code").asText())
                .isEqualTo("Base.1.8.ActionParameterMissing");
        assertThat(client.post(RESET, "{\"ResetType\": 3}", TestClient.ADMIN).statusCode()).isEqualTo(400);
        assertThat(client.post(RESET, "ResetType=On", TestClient.ADMIN).statusCode()).isEqualTo(400);
        assertThat(node.resets()).isEmpty();
        assertThat(node.powerTarget().history()).isEmpty();
        assertThatThrownBy(() -> node.allowableResetTypes(List.of("Reboot")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Reboot");
    }

    @Test
    @DisplayName("keeps reporting the old PowerState for the power change delay, on the spec's clock")
    void powerChangeDelay() {
        SimulatedSystem node = sim.system("node-1").powerChangeDelay(Duration.ofSeconds(3));
        reset("ForceOff");
        assertThat(client.json(NODE_1).get("PowerState").asText()).isEqualTo("On");
        clock.advance(Duration.ofSeconds(2));
        assertThat(node.powerTarget().power()).isEqualTo(PowerState.ON);
        clock.advance(Duration.ofSeconds(1));
        assertThat(client.json(NODE_1).get("PowerState").asText()).isEqualTo("Off");

        reset("On");
        reset("ForceRestart");
        clock.advance(Duration.ofSeconds(3));
        assertThat(node.powerTarget().history()).as("queued in order").containsExactly(PowerState.OFF, PowerState.ON,
                PowerState.OFF, PowerState.ON);
        assertThat(node.powerChangeDelay()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    @DisplayName("a system that never reaches off accepts ForceOff and stays on")
    void neverOff() {
        SimulatedSystem node = sim.system("node-1").neverOff(true);
        reset("ForceOff");
        reset("ForceRestart");
        assertThat(client.json(NODE_1).get("PowerState").asText()).isEqualTo("On");
        assertThat(node.powerTarget().history()).isEmpty();
        assertThat(node.resets()).containsExactly("ForceOff", "ForceRestart");
        node.neverOff(false);
        reset("ForceOff");
        assertThat(node.powerTarget().power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("ignores GracefulShutdown when the OS does not honour it, while ForceOff still works")
    void gracefulIgnored() {
        SimulatedSystem node = sim.system("node-1").gracefulShutdownWorks(false);
        reset("GracefulShutdown");
        assertThat(node.powerTarget().power()).isEqualTo(PowerState.ON);
        assertThat(node.resets()).containsExactly("GracefulShutdown");
        reset("ForceOff");
        assertThat(node.powerTarget().history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("answers 404 with an error body for unknown resources and 405 with Allow for a wrong method")
    void notFoundAndMethodNotAllowed() {
        for (String path : List.of("/", "/redfish/v2", "/redfish/v1/Systems/node-9", "/redfish/v1/Chassis",
                "/redfish/v1/PowerEquipment", NODE_1 + "/Actions/Other", "/redfish/v1/SessionService/Sessions/77")) {
            HttpResponse<String> response = client.get(path, TestClient.ADMIN);
            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(TestClient.parse(response).at("/error/code").asText()).isEqualTo("Base.1.8.ResourceMissingAtURI");
        }
        HttpResponse<String> getAction = client.get(RESET, TestClient.ADMIN);
        assertThat(getAction.statusCode()).isEqualTo(405);
        assertThat(getAction.headers().firstValue("Allow")).hasValue("POST");
        assertThat(client.method("PATCH", NODE_1, TestClient.ADMIN).statusCode()).isEqualTo(405);
        assertThat(client.delete("/redfish/v1/", Auth.none()).statusCode()).isEqualTo(405);
        assertThat(client.delete("/redfish/v1/SessionService/Sessions", TestClient.ADMIN).headers()
                .firstValue("Allow")).hasValue("GET, POST");
    }

    @Test
    @DisplayName("counts and logs every request, before the answer leaves")
    void counters() {
        client.get("/redfish/v1/", Auth.none());
        client.get(NODE_1, Auth.none());
        assertThat(sim.requests()).isEqualTo(2);
        assertThat(sim.requestLog()).containsExactly(
                new RedfishRequest("GET", "/redfish/v1/", 200, RedfishRequest.Auth.NONE),
                new RedfishRequest("GET", NODE_1, 401, RedfishRequest.Auth.NONE));
        sim.clearRequestLog();
        assertThat(sim.requestLog()).isEmpty();
        assertThat(sim.requests()).isEqualTo(2);
        assertThat(sim.toString()).contains("3 systems");
    }

    @Test
    @DisplayName("names what exists when asked for an unknown system or outlet")
    void unknownLookups() {
        assertThatThrownBy(() -> sim.system("node-9")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node-9").hasMessageContaining("node-1");
        assertThatThrownBy(() -> sim.outlet("pdu-1", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pdu-1");
        assertThat(sim.outlets("pdu-1")).isEmpty();
    }

    @Test
    @DisplayName("a system's Name is 'Computer System <id>' unless set, and any text once set")
    void systemName() {
        assertThat(client.json(NODE_1).get("Name").asText()).isEqualTo("Computer System node-1");
        sim.system("node-1").name("db-7, rack 4");
        assertThat(client.json(NODE_1).get("Name").asText()).isEqualTo("db-7, rack 4");
        assertThat(client.json(NODE_1).get("Id").asText()).isEqualTo("node-1");
    }
}
