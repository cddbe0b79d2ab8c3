package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.spi.Plug;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * An outlet of a Redfish PDU ({@code PowerEquipment/RackPDUs/{pdu}/Outlets/{plug}}): the PDU by {@code pdu} or
 * the only one, the outlet by {@code plug}; switched with {@code Outlet.PowerControl}, which a metered outlet does
 * not advertise (such an outlet cannot be powered).
 */
final class OutletTarget implements RedfishTarget {

    private static final List<String> ASSUMED = List.of("On", "Off");

    @Override
    public String noun() {
        return "outlet";
    }

    @Override
    public String actionName() {
        return "Outlet.PowerControl";
    }

    @Override
    public String actionField() {
        return "PowerState";
    }

    /** The path of the chosen PDU's Outlets collection. */
    private CompletableFuture<String> outlets(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        String service = connection.service();
        String equipment = RedfishTarget.link(root, "the service root on " + service, "PowerEquipment")
                .orElse("/redfish/v1/PowerEquipment");
        return connection.get(equipment)
                .thenApply(node -> RedfishTarget.link(node, RedfishTarget.where(equipment, service), "RackPDUs")
                        .orElse(equipment + "/RackPDUs"))
                .thenCompose(pdus -> connection.get(pdus).thenApply(collection -> RedfishTarget.choose(
                        RedfishTarget.members(collection, RedfishTarget.where(pdus, service)), settings.pdu(), "PDU",
                        "pdu", service)))
                .thenCompose(pdu -> connection.get(pdu).thenApply(node -> RedfishTarget.link(node,
                        RedfishTarget.where(pdu, service), "Outlets").orElseThrow(() -> RedfishException.malformed(0,
                        "PDU " + RedfishTarget.where(pdu, service) + " lists no Outlets"))));
    }

    /** The outlets of the chosen PDU, read with the collection's path. */
    private CompletableFuture<List<String>> members(RedfishConnection connection, JsonNode root,
            RedfishSettings settings) {
        return outlets(connection, root, settings).thenCompose(path -> connection.get(path).thenApply(collection ->
                RedfishTarget.members(collection, RedfishTarget.where(path, connection.service()))));
    }

    @Override
    public CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return members(connection, root, settings).thenApply(outlets -> RedfishTarget.choose(outlets,
                settings.plug(), "outlet", "plug", connection.service()));
    }

    @Override
    public CompletableFuture<List<Plug>> list(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return members(connection, root, settings).thenCompose(outlets -> Plugs.of(connection, outlets));
    }

    @Override
    public CompletableFuture<Integer> count(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return members(connection, root, settings).thenApply(List::size);
    }

    @Override
    public View view(String path, JsonNode outlet, String service) {
        return RedfishTarget.view(path, outlet, service, actionName(), "PowerState", ASSUMED, false);
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
