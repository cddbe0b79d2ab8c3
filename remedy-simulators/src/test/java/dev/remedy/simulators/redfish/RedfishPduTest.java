package dev.remedy.simulators.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.spi.PowerState;
import dev.remedy.test.FakeTimeSource;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Rack PDU outlets in the Redfish simulator")
class RedfishPduTest {

    private static final String PDU = "/redfish/v1/PowerEquipment/RackPDUs/pdu-1";
    private static final String OUTLET_3 = PDU + "/Outlets/3";
    private static final String CONTROL = OUTLET_3 + "/Actions/Outlet.PowerControl";

    private final FakeTimeSource clock = FakeTimeSource.nearOverflow(Duration.ofMinutes(5));
    private RedfishSimulator sim;
    private TestClient client;

    @BeforeEach
    void start() {
        sim = RedfishSimulator.start(RedfishSpec.builder().user("admin", "redfish-secret").systems()
                .outlets("pdu-1", 8).outlets("pdu-2", 2).nanoClock(clock::nanoTime).build());
        client = new TestClient(sim.baseUri());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    @DisplayName("links the service root to PowerEquipment, its RackPDUs and their outlets")
    void resources() {
        JsonNode root = client.json("/redfish/v1/");
        assertThat(root.at("/PowerEquipment/@odata.id").asText()).isEqualTo("/redfish/v1/PowerEquipment");
        assertThat(client.json("/redfish/v1/Systems").get("Members@odata.count").asInt()).isZero();
        JsonNode equipment = client.json("/redfish/v1/PowerEquipment");
        JsonNode pdus = client.json(equipment.at("/RackPDUs/@odata.id").asText());
        assertThat(pdus.get("Members@odata.count").asInt()).isEqualTo(2);
        assertThat(pdus.at("/Members/0/@odata.id").asText()).isEqualTo(PDU);
        JsonNode pdu = client.json(PDU);
        assertThat(pdu.get("EquipmentType").asText()).isEqualTo("RackPDU");
        assertThat(pdu.get("@odata.type").asText()).startsWith("#PowerDistribution.");
        JsonNode outlets = client.json(pdu.at("/Outlets/@odata.id").asText());
        assertThat(outlets.get("Members@odata.count").asInt()).isEqualTo(8);
        assertThat(outlets.at("/Members/7/@odata.id").asText()).isEqualTo(PDU + "/Outlets/8");

        JsonNode outlet = client.json(OUTLET_3);
        assertThat(outlet.get("Id").asText()).isEqualTo("3");
        assertThat(outlet.get("PowerState").asText()).isEqualTo("On");
        JsonNode control = outlet.at("/Actions/#Outlet.PowerControl");
        assertThat(control.get("target").asText()).isEqualTo(CONTROL);
        assertThat(control.get("PowerState@Redfish.AllowableValues").toString())
                .isEqualTo("[\"On\",\"Off\",\"PowerCycle\"]");
        for (String missing : new String[] {PDU + "/Outlets/9", PDU + "/Outlets/0", PDU + "/Outlets/x",
                "/redfish/v1/PowerEquipment/RackPDUs/pdu-3", "/redfish/v1/PowerEquipment/FloorPDUs"}) {
            assertThat(client.get(missing, TestClient.ADMIN).statusCode()).as(missing).isEqualTo(404);
        }
    }

    @Test
    @DisplayName("PowerControl switches one outlet's PowerTarget; a PowerCycle records OFF then ON")
    void powerControl() {
        SimulatedOutlet outlet = sim.outlet("pdu-1", 3);
        assertThat(outlet.path()).isEqualTo(OUTLET_3);
        assertThat(client.post(CONTROL, "{\"PowerState\": \"Off\"}", TestClient.ADMIN).statusCode()).isEqualTo(204);
        assertThat(outlet.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(client.json(OUTLET_3).get("PowerState").asText()).isEqualTo("Off");
        assertThat(sim.outlet("pdu-1", 4).powerTarget().power()).isEqualTo(PowerState.ON);
        assertThat(sim.outlet("pdu-2", 1).powerTarget().history()).isEmpty();

        client.post(CONTROL, "{\"PowerState\": \"On\"}", TestClient.ADMIN);
        client.post(CONTROL, "{\"PowerState\": \"PowerCycle\"}", TestClient.ADMIN);
        assertThat(outlet.powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON, PowerState.OFF,
                PowerState.ON);
        assertThat(outlet.powerControls()).containsExactly("Off", "On", "PowerCycle");
    }

    @Test
    @DisplayName("PowerControl takes the outlet's power change delay")
    void delay() {
        SimulatedOutlet outlet = sim.outlet("pdu-1", 3).powerChangeDelay(Duration.ofSeconds(2));
        client.post(CONTROL, "{\"PowerState\": \"Off\"}", TestClient.ADMIN);
        assertThat(client.json(OUTLET_3).get("PowerState").asText()).isEqualTo("On");
        clock.advance(Duration.ofSeconds(2));
        assertThat(client.json(OUTLET_3).get("PowerState").asText()).isEqualTo("Off");
        assertThat(outlet.powerChangeDelay()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    @DisplayName("refuses a PowerState outside the allowable values or a missing one with 400")
    void refused() {
        HttpResponse<String> wrong = client.post(CONTROL, "{\"PowerState\": \"Reboot\"}", TestClient.ADMIN);
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(TestClient.parse(wrong).at("/error/code").asText()).isEqualTo("Base.1.8.ActionParameterNotSupported");
        assertThat(client.post(CONTROL, "{}", TestClient.ADMIN).statusCode()).isEqualTo(400);
        assertThat(client.get(CONTROL, TestClient.ADMIN).statusCode()).isEqualTo(405);
        assertThat(sim.outlet("pdu-1", 3).powerControls()).isEmpty();
    }

    @Test
    @DisplayName("a metered outlet (switchable false) advertises no PowerControl, answers one with 404 and still "
            + "reports its power")
    void metered() {
        SimulatedOutlet outlet = sim.outlet("pdu-1", 3).switchable(false);
        JsonNode resource = client.json(OUTLET_3);
        assertThat(resource.has("Actions")).isFalse();
        assertThat(resource.get("PowerState").asText()).isEqualTo("On");
        assertThat(client.post(CONTROL, "{\"PowerState\": \"Off\"}", TestClient.ADMIN).statusCode()).isEqualTo(404);
        assertThat(outlet.powerControls()).isEmpty();
        assertThat(outlet.powerTarget().power()).isEqualTo(PowerState.ON);
        assertThat(client.json(PDU + "/Outlets/4").has("Actions")).isTrue();
    }
}
