package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.spi.Plug;
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
    public String actionName() {
        return "ComputerSystem.Reset";
    }

    @Override
    public String actionField() {
        return "ResetType";
    }

    private static String systems(JsonNode root, RedfishConnection connection) {
        return RedfishTarget.link(root, "the service root on " + connection.service(), "Systems")
                .orElse("/redfish/v1/Systems");
    }

    private static List<String> members(JsonNode collection, String path, RedfishConnection connection) {
        return RedfishTarget.members(collection, RedfishTarget.where(path, connection.service()));
    }

    @Override
    public CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        if (settings.systemsUri().isPresent()) {
            return CompletableFuture.completedFuture(settings.systemsUri().get());
        }
        String systems = systems(root, connection);
        return connection.get(systems).thenApply(collection -> RedfishTarget.choose(
                members(collection, systems, connection), settings.plug(), "system", "plug", connection.service()));
    }

    @Override
    public CompletableFuture<List<Plug>> list(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        String systems = systems(root, connection);
        return connection.get(systems).thenCompose(collection -> Plugs.of(connection,
                members(collection, systems, connection)));
    }

    @Override
    public CompletableFuture<Integer> count(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        String systems = systems(root, connection);
        return connection.get(systems).thenApply(collection -> members(collection, systems, connection).size());
    }

    @Override
    public View view(String path, JsonNode system, String service) {
        return RedfishTarget.view(path, system, service, actionName(), "ResetType", ASSUMED, true);
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
