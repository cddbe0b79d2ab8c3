package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.spi.Plug;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A ComputerSystem: found by {@code systems_uri}, by {@code plug}, or as the only one; reset by ResetType. */
final class SystemTarget implements RedfishTarget {

    /** The reset types assumed when a system advertises none. */
    private static final List<String> ASSUMED = List.of("On", "ForceOff", "GracefulShutdown", "ForceOn");

    @Override
    public String noun() {
        return "system";
    }

    @Override
    public String actionField() {
        return "ResetType";
    }

    private static String systems(JsonNode root) {
        return RedfishTarget.link(root, "Systems").orElse("/redfish/v1/Systems");
    }

    @Override
    public CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        if (settings.systemsUri().isPresent()) {
            return CompletableFuture.completedFuture(settings.systemsUri().get());
        }
        return connection.get(systems(root)).thenApply(collection -> RedfishTarget.choose(
                RedfishTarget.members(collection), settings.plug(), "system", "plug", connection.service()));
    }

    @Override
    public CompletableFuture<List<Plug>> list(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return connection.get(systems(root)).thenCompose(collection -> Plugs.of(connection,
                RedfishTarget.members(collection)));
    }

    @Override
    public CompletableFuture<Integer> count(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        return connection.get(systems(root)).thenApply(collection -> RedfishTarget.members(collection).size());
    }

    @Override
    public View view(String path, JsonNode system) {
        JsonNode reset = system.path("Actions").path("#ComputerSystem.Reset");
        List<String> allowed = new ArrayList<>();
        reset.path("ResetType@Redfish.AllowableValues").forEach(value -> allowed.add(value.asText()));
        String target = reset.path("target").asText(path.replaceAll("/$", "") + "/Actions/ComputerSystem.Reset");
        return new View(path, RedfishTarget.powerOf(system), target, allowed.isEmpty() ? ASSUMED : allowed);
    }

    @Override
    public Optional<String> gracefulOff(View view) {
        return view.allowed().contains("GracefulShutdown") ? Optional.of("GracefulShutdown") : Optional.empty();
    }

    @Override
    public Optional<String> forceOff(View view) {
        return view.allowed().contains("ForceOff") ? Optional.of("ForceOff") : Optional.empty();
    }

    @Override
    public Optional<String> on(View view) {
        return view.allowed().contains("On") ? Optional.of("On")
                : view.allowed().contains("ForceOn") ? Optional.of("ForceOn") : Optional.empty();
    }
}
