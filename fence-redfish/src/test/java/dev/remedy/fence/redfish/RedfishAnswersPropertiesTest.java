package dev.remedy.fence.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remedy.fence.redfish.internal.client.JsonArbitraries;
import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The redfish agent against a service that answers one of the requests of an action with anything: any status, any
 * {@code Location}, {@code X-Auth-Token} and {@code Retry-After}, a body of any shape (resources with properties of
 * the wrong type, JSON of any kind, not JSON, not UTF-8, deeply nested, huge numbers and strings). Whatever it is, the
 * action ends with an outcome; a failure's cause is a {@link RedfishException} the client raised itself, never
 * another exception; the detail is one bounded line; and no request goes to another host than the configured one,
 * whatever links the service sends.
 */
class RedfishAnswersPropertiesTest {

    private static final String PASSWORD = "answers-secret-1";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String ROOT = "/redfish/v1/";
    private static final String SESSIONS = "/redfish/v1/SessionService/Sessions";
    private static final String SYSTEMS = "/redfish/v1/Systems";
    private static final String NODE = "/redfish/v1/Systems/node-1";
    private static final String RESET = NODE + "/Actions/ComputerSystem.Reset";
    private static final String MONITOR = "/redfish/v1/TaskService/TaskMonitors/1";
    private static final String EQUIPMENT = "/redfish/v1/PowerEquipment";
    private static final String PDUS = EQUIPMENT + "/RackPDUs";
    private static final String PDU = PDUS + "/pdu-1";
    private static final String OUTLETS = PDU + "/Outlets";
    private static final String OUTLET = OUTLETS + "/1";
    private static final String CONTROL = OUTLET + "/Actions/Outlet.PowerControl";
    /** The longest detail an outcome may have: a message and excerpts of what the service sent. */
    private static final int MAX_DETAIL = 2_500;

    private static final RedfishAgentProvider SYSTEM_AGENTS = new RedfishFenceAgentProvider();
    private static final RedfishAgentProvider PDU_AGENTS = new RedfishPduAgentProvider();

    private static RedfishSimulator service;
    /** Another service, on another port: links to it must not be followed. */
    private static RedfishSimulator elsewhere;

    @BeforeContainer
    static void start() {
        service = RedfishSimulator.start(RedfishSpec.builder().systems("node-1").outlets("pdu-1", 2)
                .user("admin", PASSWORD).build());
        elsewhere = RedfishSimulator.start(RedfishSpec.builder().systems("node-1").user("admin", PASSWORD).build());
    }

    @AfterContainer
    static void stop() {
        service.close();
        elsewhere.close();
    }

    /** What the service answers a request of {@code path} with, instead of its own answer. */
    record Answer(String path, int status, Map<String, String> headers, byte[] body) {

        @Override
        public String toString() {
            String text = body == null ? "no body" : body.length + " bytes "
                    + new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
            return printable(path + " -> " + status + " " + headers + " " + text);
        }
    }

    /** An action of the system agent or the PDU agent, and the answers that replace the service's own. */
    record Case(boolean pdu, FenceAction action, String auth, List<Answer> answers) {
    }

    @Property(tries = 80, edgeCases = EdgeCasesMode.NONE)
    @Label("any answer ends the action with an outcome whose failure is a RedfishException, on the configured host")
    void anyAnswer(@ForAll("cases") Case given) throws InterruptedException {
        service.faults().clear().expireSessions();
        service.system("node-1").powerTarget().power(PowerState.ON);
        service.outlet("pdu-1", 1).powerTarget().power(PowerState.ON);
        long elsewhereBefore = elsewhere.requests();
        for (Answer answer : given.answers()) {
            service.faults().override(answer.path(), answer.status(), answer.headers(), answer.body());
        }
        FenceOutcome outcome;
        RedfishAgentProvider provider = given.pdu() ? PDU_AGENTS : SYSTEM_AGENTS;
        try (FenceAgent agent = provider.create(config(provider, given))) {
            outcome = agent.execute(new FenceRequest(given.action(), "property"),
                    FenceContext.start(TimeSource.system(), Duration.ofMillis(400)));
        }
        Statistics.label("outcome").collect(outcome.status() + outcome.cause()
                .map(cause -> cause instanceof RedfishException redfish ? " " + redfish.kind() : " other").orElse(""));
        String shown = printable(outcome.toString());
        outcome.cause().ifPresent(cause -> {
            assertThat(cause).as("the cause of %s", shown).isInstanceOf(RedfishException.class);
            for (Throwable inner = cause.getCause(); inner != null; inner = inner.getCause()) {
                if (!(inner instanceof RedfishException) && !(inner instanceof CompletionException)) {
                    assertThat(inner).as("inside the cause of %s: %s", shown, printable(inner.toString()))
                            .isNotInstanceOf(RuntimeException.class).isNotInstanceOf(Error.class);
                }
            }
        });
        assertThat(outcome.detail()).as("the detail of %s", shown).hasSizeLessThanOrEqualTo(MAX_DETAIL)
                .doesNotContainPattern("\\p{Cntrl}").doesNotContain(PASSWORD);
        assertThat(elsewhere.requests() - elsewhereBefore).as("requests that went to another host").isZero();
    }

    /** {@code text} with every character outside printable ASCII escaped, for reports. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c >= ' ' && c <= '~' ? String.valueOf((char) c)
                : String.format("\\u%04x", c)));
        return out.toString();
    }

    private static AgentConfig config(RedfishAgentProvider provider, Case given) {
        AgentConfig.Builder config = provider.configure().set("ip", "127.0.0.1")
                .set("ipport", Integer.toString(service.port())).set("ssl", "false").set("username", "admin")
                .secret("password", Secret.of(PASSWORD)).set("auth", given.auth()).set("poll_interval", "10ms")
                .set("power_timeout", "100ms").set("request_timeout", "1s");
        return (given.pdu() ? config.set("plug", "1") : config).build();
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<FenceAction> actions = Arbitraries.frequency(Tuple.of(5, FenceAction.STATUS),
                Tuple.of(2, FenceAction.LIST), Tuple.of(1, FenceAction.MONITOR), Tuple.of(2, FenceAction.OFF));
        Arbitrary<String> auth = Arbitraries.of("session", "session", "basic");
        Arbitrary<Case> systems = Combinators.combine(actions, auth, answers(ROOT, SESSIONS, SYSTEMS, NODE, RESET))
                .as((action, mode, answers) -> new Case(false, action, mode, answers));
        Arbitrary<Case> pdus = Combinators.combine(actions, auth, answers(ROOT, SESSIONS, EQUIPMENT, PDUS, PDU,
                OUTLETS, OUTLET, CONTROL)).as((action, mode, answers) -> new Case(true, action, mode, answers));
        return Arbitraries.frequencyOf(Tuple.of(3, systems), Tuple.of(1, pdus));
    }

    /** One answer for one of {@code paths}; for an action, also one for the task monitor it may name. */
    private Arbitrary<List<Answer>> answers(String... paths) {
        List<Arbitrary<List<Answer>>> each = new ArrayList<>();
        for (String path : paths) {
            each.add(path.endsWith("Reset") || path.endsWith("PowerControl")
                    ? Combinators.combine(answer(path), answer(MONITOR)).as(List::of) : answer(path).map(List::of));
        }
        return Arbitraries.oneOf(each);
    }

    private Arbitrary<Answer> answer(String path) {
        Arbitrary<Integer> statuses = Arbitraries.frequency(Tuple.of(12, 200), Tuple.of(2, 201), Tuple.of(2, 202),
                Tuple.of(2, 204), Tuple.of(1, 400), Tuple.of(1, 401), Tuple.of(1, 404), Tuple.of(1, 405),
                Tuple.of(2, 500), Tuple.of(1, 503));
        return Combinators.combine(statuses, headers(), JsonArbitraries.bodies(resource(path)))
                .as((status, headers, body) -> new Answer(path, status, headers, body));
    }

    private Arbitrary<Map<String, String>> headers() {
        Arbitrary<String> links = Arbitraries.oneOf(JsonArbitraries.links(), foreignLinks());
        Arbitrary<String> tokens = Arbitraries.oneOf(Arbitraries.strings().alpha().numeric().ofMinLength(1)
                .ofMaxLength(40), Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(40),
                Arbitraries.just("t".repeat(20_000)));
        Arbitrary<String> retries = Arbitraries.of("1", "2", "-1", "+1", "1.5", "99999999999", "99999999999999999999",
                "Wed, 21 Oct 2015 07:28:00 GMT", "", "soon");
        return Combinators.combine(links.optional(), tokens.optional(), retries.optional()).as((location, token,
                retry) -> {
            Map<String, String> headers = new HashMap<>();
            location.filter(value -> headerSafe(value)).ifPresent(value -> headers.put("Location", value));
            token.ifPresent(value -> headers.put("X-Auth-Token", value));
            retry.ifPresent(value -> headers.put("Retry-After", value));
            return headers;
        });
    }

    private static boolean headerSafe(String value) {
        return value.chars().allMatch(c -> c >= ' ' && c <= '~');
    }

    /** Links to the other service, which a client must never follow. */
    private Arbitrary<String> foreignLinks() {
        return Arbitraries.of(ROOT, SESSIONS + "/1", NODE, RESET, MONITOR)
                .map(path -> elsewhere.baseUri() + path);
    }

    /** A resource of the kind at {@code path}, its properties mostly of the right type. */
    private Arbitrary<JsonNode> resource(String path) {
        Arbitrary<JsonNode> links = Arbitraries.oneOf(JsonArbitraries.linkObjects(),
                foreignLinks().map(link -> JSON.objectNode().put("@odata.id", link)));
        Arbitrary<JsonNode> text = JsonArbitraries.mostly(JsonArbitraries.strings().map(JSON::textNode));
        Arbitrary<JsonNode> shaped = switch (path) {
            case ROOT -> Combinators.combine(links, links, text).as((systems, sessions, version) -> {
                ObjectNode root = JSON.objectNode();
                root.set("Systems", systems);
                root.putObject("Links").set("Sessions", sessions);
                root.set("RedfishVersion", version);
                return root;
            });
            case SYSTEMS, PDUS, OUTLETS -> JsonArbitraries.mostly(links.list().ofMaxSize(3).map(members -> {
                ObjectNode collection = JSON.objectNode();
                collection.putArray("Members").addAll(members);
                return collection;
            })).map(members -> members.isObject() ? members : JSON.objectNode().set("Members", members));
            case EQUIPMENT -> links.map(link -> JSON.objectNode().set("RackPDUs", link));
            case PDU -> links.map(link -> JSON.objectNode().set("Outlets", link));
            case NODE, OUTLET -> Combinators.combine(text, text, JsonArbitraries.mostly(text.list().ofMaxSize(4)
                    .map(values -> JSON.arrayNode().addAll(values)))).as((power, target, allowed) -> {
                        boolean system = path.equals(NODE);
                        ObjectNode resource = JSON.objectNode().put("Id", system ? "node-1" : "1");
                        resource.set("PowerState", power);
                        ObjectNode action = resource.putObject("Actions").putObject(system ? "#ComputerSystem.Reset"
                                : "#Outlet.PowerControl");
                        action.set("target", target);
                        action.set((system ? "ResetType" : "PowerState") + "@Redfish.AllowableValues", allowed);
                        return resource;
                    });
            case MONITOR -> Combinators.combine(text, JsonArbitraries.values(2)).as((state, messages) -> {
                ObjectNode task = JSON.objectNode();
                task.set("TaskState", state);
                task.set("Messages", messages);
                return task;
            });
            default -> errors();
        };
        return Arbitraries.frequencyOf(Tuple.of(4, shaped), Tuple.of(1, errors()), Tuple.of(1,
                JsonArbitraries.values(3)));
    }

    /** Redfish error bodies, their messages of any length and content. */
    private static Arbitrary<JsonNode> errors() {
        Arbitrary<JsonNode> text = JsonArbitraries.mostly(JsonArbitraries.strings().map(JSON::textNode));
        Arbitrary<JsonNode> info = Combinators.combine(text, text, text).as((id, message, resolution) -> {
            ObjectNode node = JSON.objectNode();
            node.set("MessageId", id);
            node.set("Message", message);
            node.set("Resolution", resolution);
            return node;
        });
        return Combinators.combine(text, text, info.list().ofMaxSize(8)).as((code, message, infos) -> {
            ObjectNode error = JSON.objectNode();
            ObjectNode inner = error.putObject("error");
            inner.set("code", code);
            inner.set("message", message);
            inner.putArray("@Message.ExtendedInfo").addAll(new ArrayList<>(infos));
            return error;
        });
    }
}
