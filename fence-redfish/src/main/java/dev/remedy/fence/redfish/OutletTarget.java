package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.spi.Plug;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * An outlet of a Redfish PDU ({@code PowerEquipment/RackPDUs/{pdu}/Outlets/{plug}}): the PDU by {@code pdu} or
 * the only one, the outlet by {@code plug}; switched with {@code Outlet.PowerControl}.
 */
final class OutletTarget implements RedfishTarget {

    private static final List<String> ASSUMED = List.of("On", "Off");

    @Override
    public String noun() {
        return "outlet";
    }

    @Override
    public String actionField() {
        return "PowerState";
    }

    private CompletableFuture<String> outlets(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        String equipment = RedfishTarget.link(root, "PowerEquipment").orElse("/redfish/v1/PowerEquipment");
        return connection.get(equipment)
                .thenCompose(node -> connection.get(RedfishTarget.link(node, "RackPDUs")
                        .orElse(equipment + "/RackPDUs")))
                .thenApply(pdus -> RedfishTarget.choose(RedfishTarget.members(pdus), settings.pdu(), "PDU", "pdu",
                        connection.service()))
                .thenCompose(connection::get)
                .thenApply(pdu -> RedfishTarget.link(pdu, "Outlets").orElseThrow(() -> new IllegalStateException(
                        "PDU " + pdu.path("@odata.id").asText() + " on " + connection.service() + " lists no Outlets")));
    }

    @Override
    public CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return outlets(connection, root, settings).thenCompose(connection::get).thenApply(collection ->
                RedfishTarget.choose(RedfishTarget.members(collection), settings.plug(), "outlet", "plug",
                        connection.service()));
    }

    @Override
    public CompletableFuture<List<Plug>> list(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return outlets(connection, root, settings).thenCompose(connection::get)
                .thenCompose(collection -> Plugs.of(connection, RedfishTarget.members(collection)));
    }

    @Override
    public CompletableFuture<Integer> count(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return outlets(connection, root, settings).thenCompose(connection::get)
                .thenApply(collection -> RedfishTarget.members(collection).size());
    }

    @Override
    public View view(String path, JsonNode outlet) {
        JsonNode control = outlet.path("Actions").path("#Outlet.PowerControl");
        List<String> allowed = new ArrayList<>();
        control.path("PowerState@Redfish.AllowableValues").forEach(value -> allowed.add(value.asText()));
        String target = control.path("target").asText(path.replaceAll("/$", "") + "/Actions/Outlet.PowerControl");
        return new View(path, RedfishTarget.powerOf(outlet), target, allowed.isEmpty() ? ASSUMED : allowed);
    }

    @Override
    public Optional<String> gracefulOff(View view) {
        return Optional.empty();
    }

    @Override
    public Optional<String> forceOff(View view) {
        return view.allowed().contains("Off") ? Optional.of("Off") : Optional.empty();
    }

    @Override
    public Optional<String> on(View view) {
        return view.allowed().contains("On") ? Optional.of("On") : Optional.empty();
    }
}
