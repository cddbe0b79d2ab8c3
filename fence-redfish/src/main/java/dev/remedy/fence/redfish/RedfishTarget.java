package dev.remedy.fence.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remedy.fence.redfish.internal.client.RedfishConnection;
import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.fence.redfish.internal.client.RedfishJson;
import dev.remedy.fence.redfish.internal.client.Text;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link RedfishRun} powers: a ComputerSystem ({@code ComputerSystem.Reset} with a {@code ResetType}) or a
 * PDU outlet ({@code Outlet.PowerControl} with a {@code PowerState}). A target finds its resource from the service
 * root, reads it, and names the action values for OFF and ON among those the resource advertises.
 */
interface RedfishTarget {

    /** How many ids a message lists at most. */
    int LISTED = 20;

    /**
     * A resource as read: its power, its action's target (none when the resource advertises no power action and
     * the target assumes none) and the values that action allows.
     */
    record View(String path, PowerState power, Optional<String> action, List<String> allowed) {
    }

    /** "system" or "outlet", for messages. */
    String noun();

    /** The power action's name: {@code ComputerSystem.Reset} or {@code Outlet.PowerControl}. */
    String actionName();

    /** The field of the action's body: {@code ResetType} or {@code PowerState}. */
    String actionField();

    /** The path of the resource to power, found from the service root. */
    CompletableFuture<String> locate(RedfishConnection connection, JsonNode root, RedfishSettings settings);

    /** Every resource this target could be, with its power, for LIST. */
    CompletableFuture<List<Plug>> list(RedfishConnection connection, JsonNode root, RedfishSettings settings);

    /** How many resources there are, for MONITOR. */
    CompletableFuture<Integer> count(RedfishConnection connection, JsonNode root, RedfishSettings settings);

    /**
     * Reads a resource.
     *
     * @param service the service, for messages
     * @throws RedfishException of kind SERVICE if a property the agent uses has the wrong type
     */
    View view(String path, JsonNode resource, String service);

    /** The action value that asks the operating system to shut down, if the resource has one. */
    Optional<String> gracefulOff(View view);

    /** The action value that cuts power at once, if the resource has one. */
    Optional<String> forceOff(View view);

    /** The action value that powers on, if the resource has one. */
    Optional<String> on(View view);

    /** {@code path on service}, for messages about a resource. */
    static String where(String path, String service) {
        return Text.excerpt(path, Text.VALUE) + " on " + service;
    }

    /**
     * The view of a resource whose power action is {@code action} (e.g. {@code ComputerSystem.Reset}) taking the
     * parameter {@code parameter}: its power state, the action's target (or the standard path under the resource) and
     * the values it allows (or {@code assumed} when it lists none).
     *
     * @param assumeAction whether a resource that advertises no such action still takes it at the standard path (no
     *     action otherwise)
     */
    static View view(String path, JsonNode resource, String service, String action, String parameter,
                     List<String> assumed, boolean assumeAction) {
        String where = where(path, service);
        String key = "#" + action;
        List<String> allowed = RedfishJson.strings(resource, where, "Actions", key,
                parameter + "@Redfish.AllowableValues");
        Optional<String> target = RedfishJson.text(resource, where, "Actions", key, "target")
                .or(() -> assumeAction || resource.path("Actions").has(key)
                        ? Optional.of(path.replaceAll("/$", "") + "/Actions/" + action) : Optional.empty());
        return new View(path, powerOf(resource, where), target, allowed.isEmpty() ? assumed : allowed);
    }

    /**
     * The PowerState of a resource: ON or OFF, UNKNOWN for the transitional states, {@code null} or none.
     *
     * @throws RedfishException of kind SERVICE if it is not a string
     */
    static PowerState powerOf(JsonNode resource, String where) {
        return switch (RedfishJson.text(resource, where, "PowerState").orElse("")) {
            case "On" -> PowerState.ON;
            case "Off" -> PowerState.OFF;
            default -> PowerState.UNKNOWN;
        };
    }

    /**
     * The {@code @odata.id} of every member of a collection.
     *
     * @throws RedfishException of kind SERVICE if the members are not links
     */
    static List<String> members(JsonNode collection, String where) {
        return RedfishJson.members(collection, where);
    }

    /**
     * The {@code @odata.id} at {@code fields} below {@code node}, if there is one.
     *
     * @throws RedfishException of kind SERVICE if it is not a link
     */
    static Optional<String> link(JsonNode node, String where, String... fields) {
        return RedfishJson.link(node, where, fields);
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
                        + " has no " + noun + " '" + wanted.get() + "'; its " + noun + "s are " + listed(ids)
                        + ": set " + parameter + " to one of them");
            }
            return paths.get(at);
        }
        if (paths.size() == 1) {
            return paths.get(0);
        }
        throw new RedfishException(RedfishException.Kind.REFUSED, 0, "Redfish service " + service + " has "
                + paths.size() + " " + noun + "s " + listed(ids) + " and no " + parameter + " names one; remedy never "
                + "guesses which machine to power off: set " + parameter);
    }

    /** The ids for a message: the first {@value #LISTED}, each cut to a short excerpt, and how many more there are. */
    static String listed(List<String> ids) {
        List<String> shown = ids.stream().limit(LISTED).map(id -> Text.excerpt(id, Text.VALUE)).toList();
        String list = shown.toString();
        return ids.size() > LISTED ? list.substring(0, list.length() - 1) + ", and " + (ids.size() - LISTED)
                + " more]" : list;
    }
}
