package dev.remedy.simulators.redfish;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The Redfish service itself: authenticates a request and routes it to a resource or action. Knows nothing of
 * HTTP exchanges or injected transport faults. Thread-safe.
 */
final class RedfishService {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String GET = "GET";
    private static final String POST = "POST";
    private static final String DELETE = "DELETE";

    private final RedfishSpec spec;
    private final Map<String, SimulatedSystem> systems;
    private final Map<String, Map<Integer, SimulatedOutlet>> outlets;
    private final Map<String, RedfishPdu> pdus;
    private final Sessions sessions;
    private final Tasks tasks;
    private final RedfishFaults faults;
    private final UUID uuid;

    RedfishService(RedfishSpec spec, Map<String, SimulatedSystem> systems, Map<String, RedfishPdu> pdus,
            Map<String, Map<Integer, SimulatedOutlet>> outlets, Sessions sessions, Tasks tasks,
            RedfishFaults faults, UUID uuid) {
        this.spec = spec;
        this.systems = systems;
        this.pdus = pdus;
        this.outlets = outlets;
        this.sessions = sessions;
        this.tasks = tasks;
        this.faults = faults;
        this.uuid = uuid;
    }

    /** Answers one request; {@code path} is the decoded path without query. */
    Reply handle(String method, String path, Credentials credentials, byte[] body) {
        try {
            return route(method, path, credentials, body);
        } catch (BadRequest e) {
            return e.reply();
        }
    }

    private Reply route(String method, String path, Credentials credentials, byte[] body) {
        if (faults.basicBeforeRouting()) {
            Optional<Reply> refused = credentials.user() == null ? Optional.of(Reply.unauthorized("The request carries"
                    + " no HTTP Basic authorization, which this service requires on every request."))
                    : authenticate(new Credentials(null, credentials.user(), credentials.password()));
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        String[] segments = segments(path);
        if (segments.length == 0 || !segments[0].equals("redfish")) {
            return Reply.notFound(path);
        }
        if (segments.length == 1) {
            return only(GET, method, path, () -> Reply.ok(Resources.versions()));
        }
        if (!segments[1].equals("v1")) {
            return Reply.notFound(path);
        }
        if (segments.length == 2) {
            return only(GET, method, path, () -> Reply.ok(Resources.serviceRoot(uuid, !pdus.isEmpty(),
                    !faults.basicBeforeRouting())));
        }
        boolean sessionCollection = segments.length == 4 && segments[2].equals("SessionService")
                && segments[3].equals("Sessions");
        if (sessionCollection && method.equals(POST)) {
            return createSession(body);
        }
        Optional<Reply> refused = authenticate(credentials);
        if (refused.isPresent()) {
            return refused.get();
        }
        return switch (segments[2]) {
            case "Systems" -> systems(method, path, segments, body);
            case "SessionService" -> sessionService(method, path, segments);
            case "TaskService" -> taskService(method, path, segments);
            case "PowerEquipment" -> pdus.isEmpty() ? Reply.notFound(path)
                    : powerEquipment(method, path, segments, body);
            default -> Reply.notFound(path);
        };
    }

    private Optional<Reply> authenticate(Credentials credentials) {
        if (credentials.token() != null) {
            return sessions.byToken(credentials.token()).isPresent() ? Optional.empty()
                    : Optional.of(Reply.unauthorized("The X-Auth-Token is not a valid session: it expired, was "
                            + "logged out, or never existed."));
        }
        if (credentials.user() != null) {
            boolean valid = spec.users().stream().anyMatch(u -> u.matches(credentials.user(),
                    credentials.password()));
            return valid ? Optional.empty() : Optional.of(Reply.unauthorized("The HTTP Basic credentials for user '"
                    + credentials.user() + "' are not valid."));
        }
        return Optional.of(Reply.unauthorized("The request carries no credentials: send an X-Auth-Token header or "
                + "HTTP Basic authorization."));
    }

    private Reply systems(String method, String path, String[] s, byte[] body) {
        if (s.length == 3) {
            return only(GET, method, path, () -> Reply.ok(Resources.systems(systems.values())));
        }
        SimulatedSystem system = systems.get(s[3]);
        if (system == null) {
            return Reply.notFound(path);
        }
        if (s.length == 4) {
            return only(GET, method, path, () -> Reply.ok(Resources.system(system)));
        }
        if (s.length == 6 && s[4].equals("Actions") && s[5].equals("ComputerSystem.Reset")) {
            return only(POST, method, path, () -> reset(system, path, parameters(body)));
        }
        return Reply.notFound(path);
    }

    private static JsonNode parameters(byte[] body) {
        if (body.length == 0) {
            return MAPPER.createObjectNode();
        }
        try {
            return MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new BadRequest(Reply.malformedJson(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new BadRequest(Reply.malformedJson(e.getMessage()));
        }
    }

    private Reply reset(SimulatedSystem system, String path, JsonNode parameters) {
        JsonNode value = parameters.get("ResetType");
        if (value == null || value.isNull()) {
            return Reply.missingParameter("ResetType", "ComputerSystem.Reset");
        }
        String resetType = value.isTextual() ? value.asText() : value.toString();
        List<String> allowed = system.allowableResetTypes();
        if (!value.isTextual() || !allowed.contains(resetType)) {
            return Reply.error(400, "ActionParameterNotSupported", "ActionParameterValueNotInList",
                    "The value '" + resetType + "' for the parameter ResetType of the action ComputerSystem.Reset "
                            + "on system '" + system.id() + "' is not one of its allowable values " + allowed + ".",
                    "Choose a value from ResetType@Redfish.AllowableValues and resubmit the request.");
        }
        Optional<Duration> async = faults.asyncResets();
        if (async.isEmpty()) {
            system.reset(resetType, tasks.now());
            return Reply.noContent();
        }
        long doneAt = tasks.now() + async.get().toNanos();
        Tasks.Task task = tasks.start(system.id(), resetType, doneAt);
        system.reset(resetType, doneAt);
        return new Reply(202, Map.of("Location", task.monitorPath()), Resources.task(task, false));
    }

    private Reply createSession(byte[] body) {
        JsonNode parameters = parameters(body);
        JsonNode user = parameters.get("UserName");
        JsonNode password = parameters.get("Password");
        if (user == null || !user.isTextual() || password == null || !password.isTextual()) {
            return Reply.error(400, "PropertyMissing", "Creating a session needs the string properties UserName "
                    + "and Password in the request body.", "Send {\"UserName\": ..., \"Password\": ...}.");
        }
        boolean valid = spec.users().stream().anyMatch(u -> u.matches(user.asText(), password.asText()));
        if (!valid) {
            return Reply.error(401, "ResourceAtUriUnauthorized", "NoValidSession", "While accessing the resource at '"
                    + Resources.SESSIONS + "', the service received an authorization error: the user name or "
                    + "password is not valid.", "Check the user name and password and resubmit the request.");
        }
        Optional<Sessions.Session> session = sessions.create(user.asText());
        if (session.isEmpty()) {
            return Reply.error(503, "SessionLimitExceeded", "The session establishment failed: the limit of "
                    + sessions.max() + " simultaneous sessions is reached.", "Log out of other sessions (DELETE "
                    + "their URI) before trying to establish a session.");
        }
        Sessions.Session created = session.get();
        return new Reply(201, Map.of("X-Auth-Token", created.token(), "Location", created.path()),
                Resources.session(created));
    }

    private Reply sessionService(String method, String path, String[] s) {
        if (s.length == 3) {
            return only(GET, method, path, () -> Reply.ok(Resources.sessionService(sessions.max())));
        }
        if (!s[3].equals("Sessions")) {
            return Reply.notFound(path);
        }
        if (s.length == 4) {
            return method.equals(GET) ? Reply.ok(Resources.sessions(sessions.all()))
                    : Reply.methodNotAllowed(method, path, "GET, POST");
        }
        if (s.length > 5) {
            return Reply.notFound(path);
        }
        Optional<Sessions.Session> session = sessions.byId(s[4]);
        if (session.isEmpty()) {
            return Reply.notFound(path);
        }
        return switch (method) {
            case GET -> Reply.ok(Resources.session(session.get()));
            case DELETE -> sessions.delete(s[4]) ? Reply.noContent() : Reply.notFound(path);
            default -> Reply.methodNotAllowed(method, path, "GET, DELETE");
        };
    }

    private Reply taskService(String method, String path, String[] s) {
        if (s.length != 5 || !(s[3].equals("TaskMonitors") || s[3].equals("Tasks"))) {
            return Reply.notFound(path);
        }
        Optional<Tasks.Task> task = tasks.find(s[4]);
        if (task.isEmpty()) {
            return Reply.notFound(path);
        }
        boolean done = tasks.done(task.get());
        if (s[3].equals("Tasks")) {
            return only(GET, method, path, () -> Reply.ok(Resources.task(task.get(), done)));
        }
        return only(GET, method, path, () -> done ? Reply.noContent()
                : new Reply(202, Map.of("Location", task.get().monitorPath(), "Retry-After", "1"),
                        Resources.task(task.get(), false)));
    }

    private Reply powerEquipment(String method, String path, String[] s, byte[] body) {
        if (s.length == 3) {
            return only(GET, method, path, () -> Reply.ok(Resources.powerEquipment()));
        }
        if (!s[3].equals("RackPDUs")) {
            return Reply.notFound(path);
        }
        if (s.length == 4) {
            return only(GET, method, path, () -> Reply.ok(Resources.rackPdus(pdus.values())));
        }
        RedfishPdu pdu = pdus.get(s[4]);
        if (pdu == null) {
            return Reply.notFound(path);
        }
        if (s.length == 5) {
            return only(GET, method, path, () -> Reply.ok(Resources.rackPdu(pdu)));
        }
        if (!s[5].equals("Outlets")) {
            return Reply.notFound(path);
        }
        Map<Integer, SimulatedOutlet> pduOutlets = outlets.get(pdu.id());
        if (s.length == 6) {
            return only(GET, method, path, () -> Reply.ok(Resources.outlets(pdu, pduOutlets.values())));
        }
        SimulatedOutlet outlet = outletNumber(s[6]).map(pduOutlets::get).orElse(null);
        if (outlet == null) {
            return Reply.notFound(path);
        }
        if (s.length == 7) {
            return only(GET, method, path, () -> Reply.ok(Resources.outlet(outlet)));
        }
        if (s.length == 9 && s[7].equals("Actions") && s[8].equals("Outlet.PowerControl") && outlet.switchable()) {
            return only(POST, method, path, () -> powerControl(outlet, parameters(body)));
        }
        return Reply.notFound(path);
    }

    private static Reply powerControl(SimulatedOutlet outlet, JsonNode parameters) {
        JsonNode value = parameters.get("PowerState");
        if (value == null || value.isNull()) {
            return Reply.missingParameter("PowerState", "Outlet.PowerControl");
        }
        String command = value.isTextual() ? value.asText() : value.toString();
        if (!value.isTextual() || !SimulatedOutlet.POWER_CONTROL_VALUES.contains(command)) {
            return Reply.error(400, "ActionParameterNotSupported", "ActionParameterValueNotInList",
                    "The value '" + command + "' for the parameter PowerState of the action Outlet.PowerControl "
                            + "is not one of its allowable values " + SimulatedOutlet.POWER_CONTROL_VALUES + ".",
                    "Choose a value from PowerState@Redfish.AllowableValues and resubmit the request.");
        }
        outlet.powerControl(command);
        return Reply.noContent();
    }

    private static Optional<Integer> outletNumber(String segment) {
        if (!segment.matches("[1-9][0-9]{0,5}")) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(segment));
    }

    private static Reply only(String allowed, String method, String path, Supplier<Reply> reply) {
        return method.equals(allowed) ? reply.get() : Reply.methodNotAllowed(method, path, allowed);
    }

    private static String[] segments(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/");
    }

    /** A request refused before its handler ran (a malformed body), carrying the reply. */
    static final class BadRequest extends RuntimeException {

        private static final long serialVersionUID = 1L;
        private final transient Reply reply;

        BadRequest(Reply reply) {
            super(null, null, false, false);
            this.reply = reply;
        }

        Reply reply() {
            return reply;
        }
    }
}
