package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link RedfishRun} powers: a ComputerSystem ({@code ComputerSystem.Reset} with a {@code ResetType}) or a
 * PDU outlet ({@code Outlet.PowerControl} with a {@code PowerState}). A target finds its resource from the service
 * root, reads it, and names the action values for OFF and ON among those the resource advertises.
 */
interface RedfishTarget {

    /** A resource as read: its power, its action's target and the values that action allows. */
    record View(String path, PowerState power, String action, List<String> allowed) {
    }

    /** "system" or "outlet", for messages. */
    String noun();

    /** The field of the action's body: {@code ResetType} or {@code PowerState}. */
    String actionField();

    /** The path of the resource to power, found from the service root. */
    CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings);

    /** Every resource this target could be, with its power, for LIST. */
    CompletableFuture<List<Plug>> list(RedfishConnection connection, JsonNode root, RedfishSettings settings);

    /** How many resources there are, for MONITOR. */
    CompletableFuture<Integer> count(RedfishConnection connection, JsonNode root, RedfishSettings settings);

    /** Reads a resource. */
    View view(String path, JsonNode resource);

    /** The action value that asks the operating system to shut down, if the resource has one. */
    Optional<String> gracefulOff(View view);

    /** The action value that cuts power at once, if the resource has one. */
    Optional<String> forceOff(View view);

    /** The action value that powers on, if the resource has one. */
    Optional<String> on(View view);

    /** The PowerState of a resource. */
    static PowerState powerOf(JsonNode resource) {
        return switch (resource.path("PowerState").asText("")) {
            case "On" -> PowerState.ON;
            case "Off" -> PowerState.OFF;
            default -> PowerState.UNKNOWN;
        };
    }

    /** The {@code @odata.id} of every member of a collection. */
    static List<String> members(JsonNode collection) {
        List<String> paths = new ArrayList<>();
        collection.path("Members").forEach(member -> {
            String path = member.path("@odata.id").asText("");
            if (!path.isEmpty()) {
                paths.add(path);
            }
        });
        return paths;
    }

    /** The {@code @odata.id} at {@code fields} below {@code node}, if there is one. */
    static Optional<String> link(JsonNode node, String... fields) {
        JsonNode at = node;
        for (String field : fields) {
            at = at.path(field);
        }
        String path = at.path("@odata.id").asText("");
        return path.isEmpty() ? Optional.empty() : Optional.of(path);
    }

    /** The last segment of a path: the member's id. */
    static String lastSegment(String path) {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    /**
     * The member of {@code paths} named {@code wanted} (by id), or the only member when none is named; several
     * without a name is a refusal, an unknown name a failure, both listing the ids.
     *
     * @param parameter the parameter that names it, for the messages
     */
    static String choose(List<String> paths, Optional<String> wanted, String noun, String parameter, String service) {
        List<String> ids = paths.stream().map(RedfishTarget::lastSegment).toList();
        if (wanted.isPresent()) {
            int at = ids.indexOf(wanted.get());
            if (at < 0) {
                throw new RedfishException(RedfishException.Kind.NOT_FOUND, 404, "Redfish service " + service
                        + " has no " + noun + " '" + wanted.get() + "'; its " + noun + "s are " + ids + ": set "
                        + parameter + " to one of them");
            }
            return paths.get(at);
        }
        if (paths.size() == 1) {
            return paths.get(0);
        }
        throw new RedfishException(RedfishException.Kind.REFUSED, 0, "Redfish service " + service + " has "
                + paths.size() + " " + noun + "s " + ids + " and no " + parameter + " names one; remedy never guesses "
                + "which machine to power off: set " + parameter);
    }
}
