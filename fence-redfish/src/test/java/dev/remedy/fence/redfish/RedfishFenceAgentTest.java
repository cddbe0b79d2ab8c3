package dev.remedy.fence.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.redfish.internal.client.RedfishException;
import dev.remedy.simulators.redfish.RedfishRequest;
import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.simulators.redfish.SimulatedSystem;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the redfish agent does that fence_redfish does not, fault by fault, against the simulator. */
class RedfishFenceAgentTest {

    private static final String PASSWORD = "agent-redfish-1";
    private static final String NODE_1 = "/redfish/v1/Systems/node-1";

    private final RedfishFenceAgentProvider provider = new RedfishFenceAgentProvider();
    private RedfishSimulator simulator;

    @AfterEach
    void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }

    private RedfishSimulator start(RedfishSpec.Builder spec) {
        simulator = RedfishSimulator.start(spec.user("admin", PASSWORD).build());
        return simulator;
    }

    private AgentConfig.Builder config() {
        return provider.configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(simulator.port()))
                .set("ssl", Boolean.toString(simulator.tls())).set("username", "admin")
                .secret("password", Secret.of(PASSWORD)).set("poll_interval", "20ms");
    }

    private static FenceOutcome run(AgentConfig config, FenceAction action, RedfishAgentProvider provider)
            throws InterruptedException {
        try (FenceAgent agent = provider.create(config)) {
            return agent.execute(new FenceRequest(action, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)));
        }
    }

    private FenceOutcome run(AgentConfig config, FenceAction action) throws InterruptedException {
        return run(config, action, provider);
    }

    @Test
    @DisplayName("a BMC that echoes the login body in a 400 reply: the outcome and its cause say so with the password"
            + " masked")
    void echoedLoginBodyIsMasked() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1")).faults().echoCredentials(true);
        FenceOutcome outcome;
        try (FenceAgent agent = FenceAgentRegistry.of(provider).create(config().build())) {
            outcome = agent.execute(new FenceRequest(FenceAction.STATUS, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)));
        }
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("answered HTTP 400: body: ")
                .contains("\"Password\":\"" + Secret.MASK + "\"").doesNotContain(PASSWORD);
        assertThat(outcome.cause()).hasValueSatisfying(cause -> assertThat(cause).isInstanceOf(RedfishException.class)
                .hasMessageContaining(Secret.MASK).hasMessageNotContaining(PASSWORD));
    }

    @Test
    @DisplayName("a BMC that quotes the Basic Authorization header in a 400 reply: through the registry, the outcome and"
            + " its cause mask it, and the cause keeps its class name")
    void echoedBasicHeaderIsMasked() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1")).faults().echoCredentials(true);
        String basic = Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        FenceOutcome outcome;
        try (FenceAgent agent = FenceAgentRegistry.of(provider).create(config().set("auth", "basic").build())) {
            outcome = agent.execute(new FenceRequest(FenceAction.STATUS, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)));
        }
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("answered HTTP 400: ").contains("Authorization: Basic " + Secret.MASK)
                .doesNotContain(basic.replace("=", ""));
        assertThat(outcome.cause()).hasValueSatisfying(cause -> assertThat(cause)
                .hasMessageStartingWith(RedfishException.class.getName() + ": ")
                .hasMessageContaining("Authorization: Basic " + Secret.MASK)
                .hasMessageNotContaining(basic.replace("=", "")));
    }

    @Test
    @DisplayName("several systems and no plug: a refusal that lists them, and nothing is reset")
    void neverGuessesTheSystem() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1", "node-2", "node-3"));
        FenceOutcome outcome = run(config().build(), FenceAction.OFF);
        assertThat(outcome.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(outcome.detail()).contains("[node-1, node-2, node-3]").contains("set plug");
        assertThat(simulator.systems()).allSatisfy(system -> assertThat(system.resets()).isEmpty());
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("plug chooses the system; an unknown plug fails naming the systems there are")
    void plugChooses() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1", "node-2"));
        FenceOutcome off = run(config().set("plug", "node-2").build(), FenceAction.OFF);
        assertThat(off.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-2").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.ON);
        FenceOutcome unknown = run(config().set("plug", "node-9").build(), FenceAction.STATUS);
        assertThat(unknown.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(unknown.detail()).contains("no system whose Id or Name is 'node-9'").contains("[node-1, node-2]");
    }

    @Test
    @DisplayName("OFF uses ForceOff and polls PowerState until Off; the session is logged out afterwards")
    void offConfirmedAndLoggedOut() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.system("node-1").powerChangeDelay(Duration.ofMillis(200));
        FenceOutcome outcome = run(config().build(), FenceAction.OFF);
        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.detail()).contains("(confirmed)");
        assertThat(outcome.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(simulator.system("node-1").resets()).containsExactly("ForceOff");
        assertThat(simulator.sessionsCreated()).isEqualTo(1);
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("auth=basic sends credentials on each request and creates no session")
    void basicAuth() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        assertThat(run(config().set("auth", "basic").build(), FenceAction.STATUS).power()).isEqualTo(PowerState.ON);
        assertThat(simulator.sessionsCreated()).isZero();
    }

    @Test
    @DisplayName("a service that advertises no sessions and wants Basic before routing (401 even on its root): OFF and"
            + " STATUS work over Basic, no session is created")
    void basicBeforeRoutingWorks() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1")).faults().basicBeforeRouting(true);
        FenceOutcome status = run(config().build(), FenceAction.STATUS);
        assertThat(status.status()).as(status.detail()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(PowerState.ON);
        FenceOutcome off = run(config().build(), FenceAction.OFF);
        assertThat(off.status()).as(off.detail()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(simulator.sessionsCreated()).isZero();
    }

    @Test
    @DisplayName("a service that wants Basic before routing, with a wrong password: after the one Basic try, the"
            + " outcome says the credentials are wrong")
    void basicBeforeRoutingWrongPassword() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1")).faults().basicBeforeRouting(true);
        FenceOutcome outcome = run(config().secret("password", Secret.of("wrong-one")).build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("HTTP 401").contains("check username, password");
        assertThat(simulator.requestLog()).filteredOn(r -> r.auth() == RedfishRequest.Auth.BASIC).hasSize(1);
        assertThat(simulator.system("node-1").resets()).isEmpty();
    }

    @Test
    @DisplayName("a service whose root advertises its sessions: the agent logs in with a session and logs out, no"
            + " Basic")
    void advertisedSessionsStillUsed() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        assertThat(run(config().build(), FenceAction.OFF).status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.sessionsCreated()).isEqualTo(1);
        assertThat(simulator.activeSessions()).isZero();
        assertThat(simulator.requestLog()).noneMatch(r -> r.auth() == RedfishRequest.Auth.BASIC);
    }

    @Test
    @DisplayName("requests that get no answer are sent again with backoff within the deadline: STATUS succeeds")
    void unansweredReadsAreRetried() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1")).faults().unansweredNext(2);
        FenceOutcome outcome = run(config().set("request_timeout", "300ms").build(), FenceAction.STATUS);
        assertThat(outcome.status()).as(outcome.detail()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.power()).isEqualTo(PowerState.ON);
        assertThat(simulator.requestLog()).extracting(RedfishRequest::path, RedfishRequest::status)
                .startsWith(org.assertj.core.groups.Tuple.tuple("/redfish/v1/", 0),
                        org.assertj.core.groups.Tuple.tuple("/redfish/v1/", 0),
                        org.assertj.core.groups.Tuple.tuple("/redfish/v1/", 200));
    }

    @Test
    @DisplayName("a service that never answers: the reads are tried again, and the action ends TIMED_OUT")
    void neverAnsweredTimesOutAtTheDeadline() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1")).faults().unansweredNext(1_000);
        Duration budget = Duration.ofSeconds(2);
        FenceOutcome outcome;
        try (FenceAgent agent = provider.create(config().set("request_timeout", "300ms").build())) {
            outcome = agent.execute(new FenceRequest(FenceAction.STATUS, "test"),
                    FenceContext.start(TimeSource.system(), budget));
        }
        assertThat(outcome.status()).as(outcome.detail()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(outcome.detail()).contains("got no answer");
        assertThat(simulator.requestLog()).as("tried more than once").hasSizeGreaterThan(1)
                .allMatch(request -> request.status() == 0);
    }

    @Test
    @DisplayName("a reset POST that gets no answer is not sent again blindly: the power is read back first, then the"
            + " reset is sent again, and it acts once")
    void unansweredResetReadsBackFirst() throws InterruptedException {
        String reset = NODE_1 + "/Actions/ComputerSystem.Reset";
        start(RedfishSpec.builder().systems("node-1")).faults().unanswered(reset, 1);
        FenceOutcome outcome = run(config().set("request_timeout", "300ms").build(), FenceAction.OFF);
        assertThat(outcome.status()).as(outcome.detail()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").resets()).containsExactly("ForceOff");
        List<String> calls = simulator.requestLog().stream().map(r -> r.method() + " " + r.path() + " " + r.status())
                .toList();
        int first = calls.indexOf("POST " + reset + " 0");
        assertThat(first).as(calls.toString()).isNotNegative();
        assertThat(calls.subList(first + 1, calls.size())).as(calls.toString())
                .startsWith("GET " + NODE_1 + " 200", "POST " + reset + " 204");
    }

    @Test
    @DisplayName("REBOOT is ForceOff confirmed, then On confirmed: never ForceRestart, which shows no OFF")
    void rebootThroughOff() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        FenceOutcome outcome = run(config().build(), FenceAction.REBOOT);
        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").resets()).containsExactly("ForceOff", "On");
        assertThat(simulator.system("node-1").powerTarget().history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("graceful_off_timeout tries GracefulShutdown first and falls back to ForceOff when it is ignored")
    void gracefulThenForce() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1", "node-2"));
        FenceOutcome graceful = run(config().set("plug", "node-1").set("graceful_off_timeout", "300ms").build(),
                FenceAction.OFF);
        assertThat(graceful.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").resets()).containsExactly("GracefulShutdown");
        simulator.system("node-2").gracefulShutdownWorks(false);
        FenceOutcome forced = run(config().set("plug", "node-2").set("graceful_off_timeout", "300ms").build(),
                FenceAction.OFF);
        assertThat(forced.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-2").resets()).containsExactly("GracefulShutdown", "ForceOff");
    }

    @Test
    @DisplayName("a system without ForceOff among its AllowableValues is not fenced, and the detail says why")
    void onlyAdvertisedResetTypes() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.system("node-1").allowableResetTypes(List.of("On", "GracefulRestart"));
        FenceOutcome outcome = run(config().build(), FenceAction.OFF);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("does not advertise ResetType ForceOff").contains("GracefulRestart");
        assertThat(simulator.system("node-1").resets()).isEmpty();
    }

    @Test
    @DisplayName("a system that never reaches Off fails after power_timeout with the power it still reports")
    void neverOff() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.system("node-1").neverOff(true);
        FenceOutcome outcome = run(config().set("power_timeout", "300ms").build(), FenceAction.OFF);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.power()).isEqualTo(PowerState.ON);
        assertThat(outcome.detail()).contains("still reports PowerState ON").contains("power_timeout");
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("a system that never reaches Off within the action's budget times out with the power it last read")
    void neverOffWithinBudget() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.system("node-1").neverOff(true);
        FenceOutcome outcome;
        try (FenceAgent agent = provider.create(config().set("poll_interval", "100ms").build())) {
            outcome = agent.execute(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofMillis(700)));
        }
        assertThat(outcome.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(outcome.power()).isEqualTo(PowerState.ON);
        assertThat(outcome.detail()).contains("still reports PowerState ON").contains("whole budget")
                .doesNotContain("not sent");
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("a connection the service drops without answering does not fail the action")
    void droppedConnection() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().dropConnectionsNext(1);

        FenceOutcome off = run(config().build(), FenceAction.OFF);

        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(simulator.requestLog()).filteredOn(request -> request.status() == 0).hasSize(1);
    }

    @Test
    @DisplayName("503 with Retry-After is waited out inside the deadline")
    void serviceUnavailable() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().serviceUnavailable(2, Duration.ofSeconds(1));
        FenceOutcome outcome = run(config().build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(outcome.attempts()).isGreaterThanOrEqualTo(5);
    }

    @Test
    @DisplayName("a 500 with a Redfish error body fails with the body's message in the detail")
    void serverError() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().failNext(1, 500);
        FenceOutcome outcome = run(config().build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("HTTP 500").doesNotContain(PASSWORD);
    }

    @Test
    @DisplayName("a body that is not JSON fails as such")
    void invalidJson() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().invalidJsonNext(1);
        FenceOutcome outcome = run(config().build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("not valid JSON");
    }

    @Test
    @DisplayName("a resource larger than max_response_size is read no further: the action fails naming the URL, the"
            + " limit and the parameter")
    void oversizedResource() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        long size = 64L << 20;
        simulator.faults().oversizedBody(NODE_1, size, false);
        FenceOutcome outcome = run(config().build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("GET " + simulator.baseUri() + NODE_1)
                .contains("larger than 4194304 bytes").contains("max_response_size");
        assertThat(simulator.faults().oversizedBytesSent()).as("bytes the service sent before the agent hung up")
                .isLessThan(size);
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("a Content-Length above max_response_size is refused before the body is read")
    void oversizedDeclaredLength() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        long size = 100L << 20;
        simulator.faults().oversizedBody(NODE_1, size, true);
        FenceOutcome outcome = run(config().set("max_response_size", Integer.toString(8 << 20)).build(),
                FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains(NODE_1).contains("larger than 8388608 bytes")
                .contains("max_response_size");
        assertThat(simulator.faults().oversizedBytesSent()).isLessThan(size);
    }

    @Test
    @DisplayName("max_response_size raised above a large resource reads it")
    void raisedLimit() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().oversizedBody(NODE_1, 6L << 20, false);
        FenceOutcome outcome = run(config().set("max_response_size", Integer.toString(8 << 20)).build(),
                FenceAction.STATUS);
        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.power()).isEqualTo(PowerState.ON);
        assertThat(simulator.faults().oversizedBytesSent()).isEqualTo(6L << 20);
    }

    @Test
    @DisplayName("an error body's messages are cut in the detail, and an error body over the limit is not read")
    void errorBodiesAreCapped() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        String message = "The service failed. " + "x".repeat(1 << 20);
        simulator.faults().override(NODE_1, 500, Map.of(), ("{\"error\": {\"code\": \"Base.1.8.GeneralError\","
                + " \"message\": \"" + message + "\"}}").getBytes(StandardCharsets.UTF_8));
        FenceOutcome cut = run(config().build(), FenceAction.STATUS);
        assertThat(cut.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(cut.detail()).contains("HTTP 500").contains("The service failed. xxx").contains("…")
                .hasSizeLessThan(2_000);
        simulator.faults().override(NODE_1, 503, Map.of(), new byte[5 << 20]);
        FenceOutcome large = run(config().build(), FenceAction.STATUS);
        assertThat(large.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(large.detail()).contains("HTTP 503 with a body larger than 4194304 bytes")
                .contains("max_response_size").hasSizeLessThan(2_000);
    }

    @Test
    @DisplayName("a task monitor asking to wait past the deadline ends the action by its deadline, logged out")
    void taskMonitorWaitPastTheDeadline() throws Exception {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().override(NODE_1 + "/Actions/ComputerSystem.Reset", 202,
                Map.of("Location", "/redfish/v1/TaskService/TaskMonitors/late"), null);
        simulator.faults().override("/redfish/v1/TaskService/TaskMonitors/late", 202,
                Map.of("Retry-After", "99999999999"), null);
        try (FenceAgent agent = provider.create(config().build())) {
            FenceOutcome outcome = agent.executeAsync(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofMillis(500)), Runnable::run)
                    .get(10, TimeUnit.SECONDS);
            assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.TIMED_OUT);
            assertThat(outcome.detail()).contains("deadline");
        }
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("a session that expires mid-action gets one new login and the action completes")
    void reloginAfterExpiry() throws Exception {
        start(RedfishSpec.builder().systems("node-1"));
        SimulatedSystem node = simulator.system("node-1").powerChangeDelay(Duration.ofMillis(600));
        try (FenceAgent agent = provider.create(config().build())) {
            CompletableFuture<FenceOutcome> outcome = agent.executeAsync(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)), Runnable::run);
            long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (node.resets().isEmpty() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            simulator.faults().expireSessions();
            FenceOutcome result = outcome.get();
            assertThat(result.status()).as("%s", result).isEqualTo(FenceStatus.SUCCEEDED);
        }
        assertThat(simulator.sessionsCreated()).isEqualTo(2);
        assertThat(simulator.activeSessions()).isZero();
    }

    @Test
    @DisplayName("202 Accepted with a task monitor is followed until the task completes")
    void taskMonitor() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().asyncResets(Duration.ofMillis(300));
        FenceOutcome outcome = run(config().build(), FenceAction.OFF);
        assertThat(outcome.status()).as("%s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("a service slower than request_timeout times out by the deadline")
    void slowService() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1"));
        simulator.faults().slowResponses(Duration.ofSeconds(2));
        FenceOutcome outcome = run(config().set("request_timeout", "300ms").build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(outcome.detail()).contains("no answer within 300 ms");
    }

    @Test
    @DisplayName("LIST reports every system with its id and power")
    void list() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1", "node-2"));
        simulator.system("node-2").powerTarget().power(PowerState.OFF);
        FenceOutcome outcome = run(config().build(), FenceAction.LIST);
        assertThat(outcome.plugs()).extracting(Plug::id, Plug::power).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("node-1", PowerState.ON),
                org.assertj.core.groups.Tuple.tuple("node-2", PowerState.OFF));
    }

    @Test
    @DisplayName("redfish-pdu switches exactly the outlet named by plug, confirmed, and lists the outlets")
    void pduOutlet() throws InterruptedException {
        start(RedfishSpec.builder().outlets("pdu-1", 4));
        RedfishPduAgentProvider pdu = new RedfishPduAgentProvider();
        AgentConfig outlet = pdu.configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(simulator.port()))
                .set("ssl", "false").set("username", "admin").secret("password", Secret.of(PASSWORD))
                .set("plug", "2").set("poll_interval", "20ms").build();
        FenceOutcome off;
        try (FenceAgent agent = pdu.create(outlet)) {
            off = agent.execute(new FenceRequest(FenceAction.OFF, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)));
        }
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.detail()).contains("outlet").contains("(confirmed)");
        assertThat(simulator.outlet("pdu-1", 2).powerControls()).containsExactly("Off");
        assertThat(simulator.outlet("pdu-1", 1).powerTarget().power()).isEqualTo(PowerState.ON);
        FenceOutcome list;
        try (FenceAgent agent = pdu.create(outlet)) {
            list = agent.execute(new FenceRequest(FenceAction.LIST, "test"),
                    FenceContext.start(TimeSource.system(), Duration.ofSeconds(5)));
        }
        assertThat(list.plugs()).extracting(Plug::id).containsExactly("1", "2", "3", "4");
        assertThat(list.plugs()).filteredOn(plug -> plug.id().equals("2")).extracting(Plug::power)
                .containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("TLS: the simulator's certificate is refused by default and trusted by fingerprint or CA file")
    void tls(@TempDir Path dir) throws Exception {
        start(RedfishSpec.builder().systems("node-1").tls(true));
        FenceOutcome refused = run(config().build(), FenceAction.STATUS);
        assertThat(refused.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(refused.detail()).contains("TLS").contains("tls_fingerprint");
        FenceOutcome pinned = run(config().set("tls_fingerprint", simulator.certificate().sha256Fingerprint())
                .build(), FenceAction.STATUS, new RedfishFenceAgentProvider());
        assertThat(pinned.status()).as("%s", pinned).isEqualTo(FenceStatus.SUCCEEDED);
        Path ca = Files.writeString(dir.resolve("ca.pem"), simulator.certificate().pem());
        FenceOutcome viaCa = run(config().set("ca_file", ca.toString()).build(), FenceAction.STATUS,
                new RedfishFenceAgentProvider());
        assertThat(viaCa.status()).as("%s", viaCa).isEqualTo(FenceStatus.SUCCEEDED);
        FenceOutcome wrongPin = run(config().set("tls_fingerprint", "00".repeat(32)).build(), FenceAction.STATUS,
                new RedfishFenceAgentProvider());
        assertThat(wrongPin.status()).isEqualTo(FenceStatus.FAILED);
    }

    @Test
    @DisplayName("a pin that does not match says so and prints the fingerprint the server offered")
    void pinMismatchPrintsTheOfferedFingerprint() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1").tls(true));
        FenceOutcome outcome = run(config().set("tls_fingerprint", "00".repeat(32)).build(), FenceAction.OFF);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("does not match tls_fingerprint")
                .contains(simulator.certificate().sha256Fingerprint())
                .doesNotContain("cannot fingerprint").doesNotContain("give ca_file");
        assertThat(simulator.system("node-1").resets()).isEmpty();
    }

    @Test
    @DisplayName("a self-signed certificate without subject alternative name given as ca_file: the host name does "
            + "not match, and tls_fingerprint pins it")
    void caFileWithoutSubjectAltName(@TempDir Path dir) throws Exception {
        start(RedfishSpec.builder().systems("node-1").tls(true).certificateWithoutSubjectAltNames());
        Path ca = Files.writeString(dir.resolve("ca.pem"), simulator.certificate().pem());
        FenceOutcome outcome = run(config().set("ca_file", ca.toString()).build(), FenceAction.STATUS);
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("host name").contains("127.0.0.1").contains("does not match")
                .contains("tls_fingerprint=" + simulator.certificate().sha256Fingerprint())
                .doesNotContain("give ca_file");
        FenceOutcome pinned = run(config().set("tls_fingerprint", simulator.certificate().sha256Fingerprint())
                .build(), FenceAction.STATUS, new RedfishFenceAgentProvider());
        assertThat(pinned.status()).as("%s", pinned).isEqualTo(FenceStatus.SUCCEEDED);
    }

    @Test
    @DisplayName("redfish-pdu: an outlet that advertises no Outlet.PowerControl is UNSUPPORTED for OFF, ON and REBOOT,"
            + " nothing is sent, and STATUS still reads it")
    void meteredOutletIsUnsupported() throws InterruptedException {
        start(RedfishSpec.builder().outlets("pdu-1", 2)).outlet("pdu-1", 2).switchable(false);
        RedfishPduAgentProvider pdu = new RedfishPduAgentProvider();
        AgentConfig outlet = pdu.configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(simulator.port()))
                .set("ssl", "false").set("username", "admin").secret("password", Secret.of(PASSWORD))
                .set("plug", "2").set("poll_interval", "20ms").build();
        for (FenceAction action : List.of(FenceAction.OFF, FenceAction.ON, FenceAction.REBOOT)) {
            FenceOutcome outcome = run(outlet, action, pdu);
            assertThat(outcome.status()).as("%s: %s", action, outcome).isEqualTo(FenceStatus.UNSUPPORTED);
            assertThat(outcome.detail()).contains("Outlet.PowerControl").doesNotContain("systems_uri");
        }
        assertThat(simulator.outlet("pdu-1", 2).powerControls()).isEmpty();
        assertThat(run(outlet, FenceAction.STATUS, pdu).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("an outcome's detail carries no status word of its own: the outcome's status is the only one on its "
            + "line (no 'OFF refused: ... OFF failed:')")
    void oneStatusWordPerOutcome() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1", "node-2"));
        FenceOutcome refused = run(config().build(), FenceAction.OFF);
        assertThat(refused.status()).isEqualTo(FenceStatus.REFUSED);
        FenceOutcome failed = run(config().set("plug", "node-9").build(), FenceAction.OFF);
        assertThat(failed.status()).isEqualTo(FenceStatus.FAILED);
        simulator.faults().slowResponses(Duration.ofMillis(600));
        FenceOutcome timedOut = run(config().set("plug", "node-1").set("request_timeout", "200ms").build(),
                FenceAction.STATUS);
        assertThat(timedOut.status()).isEqualTo(FenceStatus.TIMED_OUT);
        for (FenceOutcome outcome : List.of(refused, failed, timedOut)) {
            assertThat(outcome.detail()).as("%s", outcome).isNotBlank()
                    .doesNotContainPattern("(?i)\\b(OFF|STATUS) (failed|refused|timed out|succeeded)\\b");
        }
        assertThat(simulator.systems()).allSatisfy(system -> assertThat(system.resets()).isEmpty());
    }

    @Test
    @DisplayName("plug names a system by its Name when no Id matches; a Name two systems share is refused, and an "
            + "Id wins over a Name")
    void plugByName() throws InterruptedException {
        start(RedfishSpec.builder().systems("node-1", "node-2", "node-3"));
        simulator.system("node-2").name("db-7.example");
        FenceOutcome off = run(config().set("plug", "db-7.example").build(), FenceAction.OFF);
        assertThat(off.status()).as("%s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-2").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(simulator.system("node-1").resets()).isEmpty();
        assertThat(simulator.system("node-3").resets()).isEmpty();

        simulator.system("node-3").name("db-7.example");
        FenceOutcome shared = run(config().set("plug", "db-7.example").build(), FenceAction.OFF);
        assertThat(shared.status()).isEqualTo(FenceStatus.REFUSED);
        assertThat(shared.detail()).contains("'db-7.example'").contains("[node-2, node-3]").contains("Id");
        assertThat(simulator.system("node-3").resets()).isEmpty();

        simulator.system("node-3").name("node-1");
        assertThat(run(config().set("plug", "node-1").build(), FenceAction.OFF).status())
                .isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(simulator.system("node-1").powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(simulator.system("node-3").resets()).isEmpty();

        FenceOutcome unknown = run(config().set("plug", "db-9").build(), FenceAction.STATUS);
        assertThat(unknown.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(unknown.detail()).contains("'db-9'").contains("[node-1, node-2, node-3]")
                .contains("db-7.example");
    }
}
