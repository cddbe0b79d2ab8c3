package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.fence.redfish.internal.client.Text;
import dev.remedy.spi.Plug;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * A ComputerSystem: found by {@code systems_uri}, by {@code plug} (its Id, or its Name when no Id matches), or as the
 * only one; reset by ResetType.
 */
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

    /**
     * The system {@code systems_uri} names; else the one whose Id is {@code plug}; else the one whose {@code Name} is
     * {@code plug} (the members are read for it, and a Name several systems share is a refusal); else the only one.
     */
    @Override
    public CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings) {
        if (settings.systemsUri().isPresent()) {
            return CompletableFuture.completedFuture(settings.systemsUri().get());
        }
        String systems = systems(root, connection);
        return connection.get(systems).thenCompose(collection -> {
            List<String> paths = members(collection, systems, connection);
            Optional<String> plug = settings.plug();
            if (plug.isEmpty() || paths.stream().map(RedfishTarget::lastSegment).anyMatch(plug.get()::equals)) {
                return CompletableFuture.completedFuture(RedfishTarget.choose(paths, plug, "system", "plug",
                        connection.service()));
            }
            return Plugs.of(connection, paths).thenApply(plugs -> byName(paths, plugs, plug.get(),
                    connection.service()));
        });
    }

    /** The path of the only system named {@code name}, read as {@code plugs} in the order of {@code paths}. */
    private static String byName(List<String> paths, List<Plug> plugs, String name, String service) {
        List<Integer> named = IntStream.range(0, plugs.size()).filter(i -> plugs.get(i).alias().equals(name))
                .boxed().toList();
        String plug = "'" + Text.excerpt(name, Text.VALUE) + "'";
        if (named.size() == 1) {
            return paths.get(named.get(0));
        }
        if (named.size() > 1) {
            throw new RedfishException(RedfishException.Kind.REFUSED, 0, "Redfish service " + service + " has "
                    + named.size() + " systems named " + plug + ", with the Ids " + RedfishTarget.listed(named.stream()
                            .map(i -> plugs.get(i).id()).toList()) + "; remedy never guesses which machine to power "
                    + "off: set plug to the Id of one");
        }
        throw new RedfishException(RedfishException.Kind.NOT_FOUND, 404, "Redfish service " + service + " has no "
                + "system whose Id or Name is " + plug + "; its systems are " + RedfishTarget.listed(plugs.stream()
                        .map(Plug::id).toList()) + ", named " + RedfishTarget.listed(plugs.stream().map(Plug::alias)
                        .map(alias -> "'" + alias + "'").toList()) + ": set plug to one of them");
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
