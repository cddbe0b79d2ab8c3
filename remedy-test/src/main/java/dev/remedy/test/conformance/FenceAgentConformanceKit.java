package dev.remedy.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.ProgressListener;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.PowerTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The contract every fence agent keeps, as an abstract JUnit 5 test. An agent module extends it in
 * {@code <Agent>ConformanceTest} (against a simulator) or {@code <Agent>ConformanceIT} (against a real peer),
 * supplies the provider, a configuration for a reachable target, one for an unreachable target and a
 * {@link PowerTarget} to observe the machine directly, and inherits the checks.
 *
 * <p>After every test, no secret value of the supplied configurations may appear in any log record (any level),
 * progress message, outcome, cause or exception the test saw: not as it is, not in base64 or URL-safe base64, and
 * not in the base64 of an HTTP Basic pair with a text parameter of its configuration (the user name). Secrets must be
 * at least {@value #MIN_SECRET_LENGTH} characters long so that a leak cannot hide behind a common word.
 *
 * <p>Devices that echo secrets. A device may send back what it was sent: a BMC that quotes the login body or the
 * {@code Authorization} header in an error reply, a PDU whose error line quotes the session's password. An agent
 * puts device text into its outcomes, so only {@link FenceAgentRegistry#create}, the path the engine and the CLI
 * take, can mask it. {@link #echoingConfigs()} supplies configurations for such a device (a simulator in echo mode,
 * with the same secrets as the reachable one or its own); the kit then runs STATUS, MONITOR, the fencing action and
 * LIST against it with agents from the registry, checks that the device did echo (what the agents reported shows
 * {@link Secret#MASK}) and that no secret reached an outcome, exception, progress message or log line. The registry
 * never sees log lines: an agent must not log what a device sent. An agent whose protocol gives a device no text
 * to echo leaves {@link #echoingConfigs()} empty and says why (IPMI: RMCP+ sends neither the password nor the BMC
 * key, only HMACs keyed with them, and a BMC answers with completion codes, not text).
 *
 * <p>The kit reads log records through {@code java.util.logging}: agents log through SLF4J, so the test run routes
 * SLF4J there with {@code org.slf4j:slf4j-jdk14} at test scope (and no other SLF4J provider). The kit logs a canary
 * line through SLF4J and one through {@link System.Logger} before every test; if either does not reach it, every
 * check that reads log records fails and says what to add or remove, instead of passing without having seen a line.
 *
 * <p>The checks follow the provider's {@link FencingKind}. A {@link FencingKind#POWER} or {@link FencingKind#FABRIC}
 * agent fences with OFF, confirmed by STATUS, and undoes it with ON; a fabric agent answers REBOOT with
 * {@link FenceStatus#UNSUPPORTED}. A {@link FencingKind#SOFT} agent fences with REBOOT, answers OFF and ON with
 * {@link FenceStatus#UNSUPPORTED} and never claims the target is off; the checks that need OFF are skipped for it,
 * and the deadline, credential and interrupt checks use REBOOT instead.
 *
 * <p>An agent that must deviate overrides the test method with a written reason.
 */
public abstract class FenceAgentConformanceKit {

    /** Shortest secret the kit accepts. */
    public static final int MIN_SECRET_LENGTH = 8;

    private static final String INITIATOR = "conformance-kit";
    private static final Set<FenceStatus> FAILURES = EnumSet.of(FenceStatus.FAILED, FenceStatus.TIMED_OUT);

    private final List<String> observed = Collections.synchronizedList(new ArrayList<>());
    private LogCapture logs;

    /** The provider under test (constructed directly, not through ServiceLoader). */
    protected abstract FenceAgentProvider provider();

    /** A valid configuration for the target that {@link #target()} observes. */
    protected abstract AgentConfig reachableConfig();

    /** A valid configuration for a target that never answers (a closed port, an address nobody answers on). */
    protected abstract AgentConfig unreachableConfig();

    /** The target of {@link #reachableConfig()}, observed and set behind the agent's back. */
    protected abstract PowerTarget target();

    /** A configuration for the reachable target with a wrong secret, if the agent uses credentials. */
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.empty();
    }

    /**
     * Configurations for a device that echoes the secrets it is sent (or holds) in its error replies, one per way it
     * can be asked for them (a Redfish session login and HTTP Basic, say); empty, the default, skips the check. The
     * kit never observes the device's power: it may be a simulator of its own.
     */
    protected List<AgentConfig> echoingConfigs() {
        return List.of();
    }

    /** The clock the agent's contexts run on; the kit measures elapsed time with it too. */
    protected TimeSource time() {
        return TimeSource.system();
    }

    /** The budget of an action against the reachable target. */
    protected Duration actionTimeout() {
        return Duration.ofSeconds(60);
    }

    /** The budget of an action against the unreachable target; the deadline test uses it. */
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(5);
    }

    /** How far past its deadline an action may return (scheduling, closing sockets). */
    protected Duration deadlineGrace() {
        return Duration.ofSeconds(2);
    }

    @BeforeEach
    final void startConformanceTest() {
        logs = LogCapture.start();
        for (String secret : secrets()) {
            assertThat(secret.length())
                    .as("the kit needs secrets of at least %d characters to detect leaks; configure a longer one "
                            + "for the test target", MIN_SECRET_LENGTH)
                    .isGreaterThanOrEqualTo(MIN_SECRET_LENGTH);
        }
        target().power(PowerState.ON);
        target().clearHistory();
    }

    @AfterEach
    final void noSecretReachedAnyText() {
        Thread.interrupted();
        try {
            assertNoSecretIn(logs.lines(), "log records");
            assertNoSecretIn(observed, "outcomes, progress messages and exceptions");
        } finally {
            logs.close();
        }
    }

    @Test
    @DisplayName("the provider describes itself: a valid type id, a description, documented parameters and the basic actions")
    public void providerDescribesItself() {
        FenceAgentProvider provider = provider();
        assertThat(provider.type()).matches("[a-z][a-z0-9-]*");
        assertThat(provider.description()).isNotBlank();
        assertThat(provider.supportedActions()).as("actions of a %s agent", kind().code())
                .contains(FenceAction.STATUS, fencingAction());
        if (kind() != FencingKind.SOFT) {
            assertThat(provider.supportedActions()).as("actions of a %s agent", kind().code())
                    .contains(FenceAction.ON);
        }
        List<String> names = provider.parameters().stream().map(ParameterDescriptor::name).toList();
        assertThat(names).doesNotHaveDuplicates();
        assertThat(provider.parameters()).allSatisfy(p -> assertThat(p.description())
                .as("description of parameter '%s'", p.name()).isNotBlank());
    }

    @Test
    @DisplayName("the provider is found by ServiceLoader under its type id")
    public void providerIsFoundByServiceLoader() {
        FenceAgentRegistry registry = FenceAgentRegistry.load(provider().getClass().getClassLoader());
        assertThat(registry.provider(provider().type())).isInstanceOf(provider().getClass());
    }

    @Test
    @DisplayName("OFF when the target is already off succeeds and never powers it on")
    public void offWhenAlreadyOffSucceeds() throws InterruptedException {
        assumeOffAndOn();
        target().power(PowerState.OFF);
        target().clearHistory();
        FenceOutcome outcome = run(reachableConfig(), FenceAction.OFF, actionTimeout());
        assertThat(outcome.status()).as("outcome %s", outcome).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.power()).isEqualTo(PowerState.OFF);
        assertThat(target().power()).isEqualTo(PowerState.OFF);
        assertThat(target().history()).doesNotContain(PowerState.ON);
    }

    @Test
    @DisplayName("after OFF succeeds the target is off, and STATUS reads OFF")
    public void statusAfterOffReadsOff() throws InterruptedException {
        assumeOffAndOn();
        FenceOutcome off = run(reachableConfig(), FenceAction.OFF, actionTimeout());
        assertThat(off.status()).as("outcome %s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(target().power()).as("the target itself, read right after OFF succeeded").isEqualTo(PowerState.OFF);
        FenceOutcome status = run(reachableConfig(), FenceAction.STATUS, actionTimeout());
        assertThat(status.status()).as("outcome %s", status).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("STATUS of a powered target reads ON and changes nothing")
    public void statusOfAPoweredTargetReadsOn() throws InterruptedException {
        FenceOutcome status = run(reachableConfig(), FenceAction.STATUS, actionTimeout());
        assertThat(status.status()).as("outcome %s", status).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(status.power()).isEqualTo(PowerState.ON);
        assertThat(target().history()).doesNotContain(PowerState.OFF);
    }

    @Test
    @DisplayName("ON after OFF succeeds once the target reads ON")
    public void onAfterOffReadsOn() throws InterruptedException {
        assumeOffAndOn();
        target().power(PowerState.OFF);
        FenceOutcome on = run(reachableConfig(), FenceAction.ON, actionTimeout());
        assertThat(on.status()).as("outcome %s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(on.power()).isEqualTo(PowerState.ON);
        assertThat(target().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("REBOOT ends with the target on, and the target was observed off in between")
    public void rebootPassesThroughOff() throws InterruptedException {
        assumeThat(provider().supportedActions()).as("REBOOT supported").contains(FenceAction.REBOOT);
        assumeThat(kind()).as("a soft REBOOT proves nothing about power").isNotEqualTo(FencingKind.SOFT);
        FenceOutcome reboot = run(reachableConfig(), FenceAction.REBOOT, actionTimeout());
        assertThat(reboot.status()).as("outcome %s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.power()).isEqualTo(PowerState.ON);
        assertThat(target().power()).isEqualTo(PowerState.ON);
        List<PowerState> history = target().history();
        assertThat(history).as("power history of the target during REBOOT").contains(PowerState.OFF);
        assertThat(history.lastIndexOf(PowerState.ON)).as("ON after the OFF in %s", history)
                .isGreaterThan(history.indexOf(PowerState.OFF));
    }

    @Test
    @DisplayName("an action against an unreachable target returns by its deadline, as a failure")
    public void deadlineIsRespected() throws InterruptedException {
        Duration budget = unreachableTimeout();
        long start = time().nanoTime();
        FenceOutcome outcome = run(unreachableConfig(), fencingAction(), budget);
        Duration took = Duration.ofNanos(time().nanoTime() - start);
        assertThat(outcome.status()).as("outcome %s", outcome).isIn(FAILURES);
        assertThat(took).as("time until execute returned, budget %s", budget)
                .isLessThanOrEqualTo(budget.plus(deadlineGrace()));
        assertThat(outcome.elapsed()).as("elapsed reported in %s", outcome)
                .isLessThanOrEqualTo(budget.plus(deadlineGrace()));
    }

    @Test
    @DisplayName("every action against an unreachable target is FAILED or TIMED_OUT, never SUCCEEDED")
    public void unreachableIsNeverASuccess() throws InterruptedException {
        for (FenceAction action : provider().supportedActions()) {
            FenceOutcome outcome = run(unreachableConfig(), action, unreachableTimeout());
            assertThat(outcome.status()).as("%s against an unreachable target: %s", action, outcome).isIn(FAILURES);
        }
    }

    @Test
    @DisplayName("wrong credentials are a failure, never a success")
    public void wrongCredentialsFail() throws InterruptedException {
        Optional<AgentConfig> wrong = wrongCredentialsConfig();
        assumeThat(wrong).as("the agent uses credentials").isPresent();
        for (FenceAction action : List.of(FenceAction.STATUS, fencingAction())) {
            FenceOutcome outcome = run(wrong.get(), action, actionTimeout());
            assertThat(outcome.status()).as("%s with a wrong secret: %s", action, outcome)
                    .isIn(FenceStatus.FAILED, FenceStatus.REFUSED, FenceStatus.TIMED_OUT);
        }
        assertThat(target().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("a bad configuration is refused with every problem named: missing, malformed and unknown parameters")
    public void badConfigurationNamesEveryProblem() {
        FenceAgentProvider provider = provider();
        AgentConfig.Builder builder = provider.configure();
        Set<String> expected = new HashSet<>();
        for (ParameterDescriptor p : provider.parameters()) {
            if (p.required()) {
                expected.add(p.name());
            } else if (p.type() != ParameterType.STRING && !p.secret()) {
                builder.set(p.name(), "not-a-" + p.type().name().toLowerCase(java.util.Locale.ROOT) + "-%");
                expected.add(p.name());
            }
        }
        builder.set("no_such_parameter", "1");
        expected.add("no_such_parameter");
        Throwable thrown = catchThrowable(() -> provider.create(builder.build()));
        observe(thrown);
        assertThat(thrown).as("create() with %s", builder.build()).isInstanceOf(InvalidConfigurationException.class);
        InvalidConfigurationException refused = (InvalidConfigurationException) thrown;
        assertThat(refused.problems()).extracting(ConfigProblem::path).containsAll(expected);
        assertThat(refused.getMessage()).contains(expected);
    }

    @Test
    @DisplayName("secrets never reach logs, outcomes or exceptions, whatever happens")
    public void secretsStayOutOfEveryText() throws InterruptedException {
        assumeThat(secrets()).as("the agent has secret parameters").isNotEmpty();
        observe(reachableConfig());
        run(reachableConfig(), FenceAction.STATUS, actionTimeout());
        run(reachableConfig(), FenceAction.MONITOR, actionTimeout());
        run(unreachableConfig(), FenceAction.STATUS, unreachableTimeout());
        if (wrongCredentialsConfig().isPresent()) {
            run(wrongCredentialsConfig().get(), FenceAction.STATUS, actionTimeout());
        }
        AgentConfig.Builder broken = provider().configure();
        for (ParameterDescriptor p : provider().parameters()) {
            if (p.secret()) {
                reachableConfig().secret(p.name()).ifPresent(s -> broken.secret(p.name(), s));
            }
        }
        broken.set("no_such_parameter", "1");
        observe(catchThrowable(() -> provider().create(broken.build())));
        assertThat(observed).isNotEmpty();
        assertNoSecretIn(logs.lines(), "log records");
        assertNoSecretIn(observed, "outcomes, progress messages and exceptions");
    }

    @Test
    @DisplayName("secrets a device echoes never reach the outcomes, exceptions, progress or logs of an agent from the registry")
    public void echoedSecretsStayOutOfEveryText() throws InterruptedException {
        List<AgentConfig> echoing = echoingConfigs();
        assumeThat(echoing).as("configurations of a device that echoes secrets (echoingConfigs)").isNotEmpty();
        List<FenceAction> actions = Stream.of(FenceAction.STATUS, FenceAction.MONITOR, fencingAction(),
                FenceAction.LIST).distinct().filter(provider().supportedActions()::contains).toList();
        List<String> reported = new ArrayList<>();
        for (AgentConfig config : echoing) {
            for (FenceAction action : actions) {
                FenceOutcome outcome = run(FenceAgentRegistry.of(provider()).create(config), action, actionTimeout(),
                        ProgressListener.NONE);
                reported.add(outcome.toString());
                outcome.cause().ifPresent(cause -> Stream.iterate(cause, c -> c != null, Throwable::getCause)
                        .map(Throwable::toString).forEach(reported::add));
            }
        }
        assertThat(reported).as("what the agents reported of the echoing device: it echoed a secret, which the "
                + "registry masked as %s; if it did not echo, fix echoingConfigs()", Secret.MASK)
                .anySatisfy(text -> assertThat(text).contains(Secret.MASK));
        assertNoSecretIn(logs.lines(), "log records");
        assertNoSecretIn(observed, "outcomes, progress messages and exceptions");
    }

    @Test
    @DisplayName("an agent interrupted before it starts does not change power")
    public void interruptBeforeStartChangesNothing() {
        Thread.currentThread().interrupt();
        Throwable thrown = catchThrowable(() -> {
            FenceOutcome outcome = run(reachableConfig(), fencingAction(), actionTimeout());
            assertThat(outcome.isSuccess()).as("%s by an interrupted thread: %s", fencingAction(), outcome).isFalse();
            assertThat(Thread.interrupted()).as("interrupt flag restored with %s", outcome).isTrue();
        });
        Thread.interrupted();
        if (thrown != null && !(thrown instanceof InterruptedException)) {
            fail("execute failed with something other than InterruptedException", thrown);
        }
        assertThat(target().power()).as("power of the target after an interrupted %s", fencingAction())
                .isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("an interrupt while the agent waits stops the action long before its deadline")
    public void interruptDuringTheActionStopsIt() {
        Duration budget = actionTimeout();
        List<String> progress = new ArrayList<>();
        ProgressListener interruptAtFirstMessage = message -> {
            progress.add(message);
            if (progress.size() == 1) {
                Thread.currentThread().interrupt();
            }
        };
        long start = time().nanoTime();
        Throwable thrown = catchThrowable(() -> {
            FenceOutcome outcome = run(unreachableConfig(), fencingAction(), budget, interruptAtFirstMessage);
            assertThat(outcome.isSuccess()).as("interrupted %s: %s", fencingAction(), outcome).isFalse();
            assertThat(Thread.interrupted()).as("interrupt flag restored with %s", outcome).isTrue();
        });
        Thread.interrupted();
        Duration took = Duration.ofNanos(time().nanoTime() - start);
        assertThat(progress).as("progress messages (the kit interrupts at the first one)").isNotEmpty();
        if (thrown != null && !(thrown instanceof InterruptedException)) {
            fail("execute failed with something other than InterruptedException", thrown);
        }
        assertThat(took).as("time until an interrupted action returned, budget %s", budget)
                .isLessThan(budget.dividedBy(2));
    }

    @Test
    @DisplayName("actions the agent does not support are answered UNSUPPORTED")
    public void unsupportedActionsAnswerUnsupported() throws InterruptedException {
        Set<FenceAction> unsupported = EnumSet.complementOf(EnumSet.copyOf(provider().supportedActions()));
        assumeThat(unsupported).as("actions the agent does not support").isNotEmpty();
        for (FenceAction action : unsupported) {
            FenceOutcome outcome = run(reachableConfig(), action, actionTimeout());
            assertThat(outcome.status()).as("%s: %s", action, outcome).isEqualTo(FenceStatus.UNSUPPORTED);
        }
        assertThat(target().power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("a fabric agent answers REBOOT with UNSUPPORTED and leaves the port as it was")
    public void fabricAgentRefusesReboot() throws InterruptedException {
        assumeThat(kind()).as("fencing kind").isEqualTo(FencingKind.FABRIC);
        assertThat(provider().supportedActions()).as("actions of a fabric agent").doesNotContain(FenceAction.REBOOT);
        FenceOutcome reboot = run(reachableConfig(), FenceAction.REBOOT, actionTimeout());
        assertThat(reboot.status()).as("REBOOT of a fabric agent: %s", reboot).isEqualTo(FenceStatus.UNSUPPORTED);
        assertThat(target().power()).isEqualTo(PowerState.ON);
        assertThat(target().history()).as("port history during REBOOT").doesNotContain(PowerState.OFF);
    }

    @Test
    @DisplayName("a fabric agent isolates with OFF and un-fences with ON: the port reads OFF, then ON again")
    public void fabricOffThenOnRoundTrip() throws InterruptedException {
        assumeThat(kind()).as("fencing kind").isEqualTo(FencingKind.FABRIC);
        FenceOutcome off = run(reachableConfig(), FenceAction.OFF, actionTimeout());
        assertThat(off.status()).as("OFF: %s", off).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(off.power()).isEqualTo(PowerState.OFF);
        assertThat(target().power()).as("the port, read right after OFF succeeded").isEqualTo(PowerState.OFF);
        assertThat(readStatus()).as("STATUS after OFF").isEqualTo(PowerState.OFF);
        FenceOutcome on = run(reachableConfig(), FenceAction.ON, actionTimeout());
        assertThat(on.status()).as("ON (un-fence): %s", on).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(on.power()).isEqualTo(PowerState.ON);
        assertThat(target().power()).as("the port, read right after ON succeeded").isEqualTo(PowerState.ON);
        assertThat(readStatus()).as("STATUS after ON").isEqualTo(PowerState.ON);
        assertThat(target().history()).as("port history").containsSubsequence(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("a soft agent answers OFF and ON with UNSUPPORTED and changes nothing")
    public void softAgentRefusesOffAndOn() throws InterruptedException {
        assumeThat(kind()).as("fencing kind").isEqualTo(FencingKind.SOFT);
        assertThat(provider().supportedActions()).as("actions of a soft agent")
                .doesNotContain(FenceAction.OFF, FenceAction.ON);
        for (FenceAction action : List.of(FenceAction.OFF, FenceAction.ON)) {
            FenceOutcome outcome = run(reachableConfig(), action, actionTimeout());
            assertThat(outcome.status()).as("%s of a soft agent: %s", action, outcome)
                    .isEqualTo(FenceStatus.UNSUPPORTED);
        }
        assertThat(target().power()).isEqualTo(PowerState.ON);
        assertThat(target().history()).as("power history").doesNotContain(PowerState.OFF);
    }

    @Test
    @DisplayName("a soft agent's REBOOT succeeds against a reachable target and never claims the target is off")
    public void softRebootNeverClaimsOff() throws InterruptedException {
        assumeThat(kind()).as("fencing kind").isEqualTo(FencingKind.SOFT);
        FenceOutcome reboot = run(reachableConfig(), FenceAction.REBOOT, actionTimeout());
        assertThat(reboot.status()).as("REBOOT: %s", reboot).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(reboot.power()).as("power reported by a soft REBOOT, which cannot know it: %s", reboot)
                .isNotEqualTo(PowerState.OFF);
    }

    /** The kind of the provider under test. */
    private FencingKind kind() {
        return provider().fencingKind();
    }

    /** The action that fences: REBOOT for a soft agent, OFF for the others. */
    private FenceAction fencingAction() {
        return kind() == FencingKind.SOFT ? FenceAction.REBOOT : FenceAction.OFF;
    }

    private void assumeOffAndOn() {
        assumeThat(kind()).as("a soft agent has no OFF or ON").isNotEqualTo(FencingKind.SOFT);
    }

    private PowerState readStatus() throws InterruptedException {
        FenceOutcome status = run(reachableConfig(), FenceAction.STATUS, actionTimeout());
        assertThat(status.status()).as("STATUS: %s", status).isEqualTo(FenceStatus.SUCCEEDED);
        return status.power();
    }

    /**
     * Runs one action with a fresh agent from the provider (unwrapped: the agent's own texts must keep secrets out),
     * recording every text it produces for the secret check.
     */
    protected final FenceOutcome run(AgentConfig config, FenceAction action, Duration budget)
            throws InterruptedException {
        return run(config, action, budget, ProgressListener.NONE);
    }

    private FenceOutcome run(AgentConfig config, FenceAction action, Duration budget, ProgressListener listener)
            throws InterruptedException {
        return run(provider().create(config), action, budget, listener);
    }

    private FenceOutcome run(FenceAgent agent, FenceAction action, Duration budget, ProgressListener listener)
            throws InterruptedException {
        observe(agent);
        FenceContext context = FenceContext.start(time(), budget, message -> {
            observed.add(message);
            listener.onProgress(message);
        });
        try (agent) {
            FenceOutcome outcome = agent.execute(new FenceRequest(action, INITIATOR), context);
            assertThat(outcome).as("outcome of %s", action).isNotNull();
            observe(outcome);
            outcome.cause().ifPresent(this::observe);
            return outcome;
        } catch (InterruptedException | RuntimeException e) {
            observe(e);
            throw e;
        }
    }

    private void observe(Object value) {
        if (value instanceof Throwable t) {
            Stream.iterate(t, c -> c != null, Throwable::getCause).forEach(c -> {
                observed.add(c.toString());
                for (Throwable s : c.getSuppressed()) {
                    observed.add(s.toString());
                }
            });
        } else if (value != null) {
            observed.add(value.toString());
        }
    }

    private List<AgentConfig> configs() {
        List<AgentConfig> configs = new ArrayList<>(List.of(reachableConfig(), unreachableConfig()));
        wrongCredentialsConfig().ifPresent(configs::add);
        configs.addAll(echoingConfigs());
        return configs;
    }

    private Set<String> secrets() {
        Set<String> values = new HashSet<>();
        for (AgentConfig config : configs()) {
            for (ParameterDescriptor p : config.parameters()) {
                if (p.secret()) {
                    config.secret(p.name()).ifPresent(s -> values.add(s.reveal()));
                }
            }
        }
        return values;
    }

    /**
     * Every secret value as it is, in base64 and URL-safe base64 (without padding), and in the base64 of an HTTP Basic
     * pair with every text value of its configuration.
     */
    private Set<String> leaks() {
        Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
        Set<String> forms = new HashSet<>();
        for (AgentConfig config : configs()) {
            List<String> texts = config.parameters().stream()
                    .filter(p -> !p.secret() && p.type() == ParameterType.STRING)
                    .flatMap(p -> config.text(p.name()).stream()).toList();
            for (ParameterDescriptor p : config.parameters()) {
                if (p.secret()) {
                    config.secret(p.name()).map(Secret::reveal).ifPresent(secret -> {
                        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
                        forms.add(secret);
                        forms.add(base64.encodeToString(bytes));
                        forms.add(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
                        texts.forEach(text -> forms.add(base64.encodeToString((text + ":" + secret)
                                .getBytes(StandardCharsets.UTF_8))));
                    });
                }
            }
        }
        return forms;
    }

    private void assertNoSecretIn(List<String> texts, String where) {
        Set<String> leaks = leaks();
        List<String> snapshot;
        synchronized (texts) {
            snapshot = List.copyOf(texts);
        }
        for (String text : snapshot) {
            for (String leak : leaks) {
                if (text.contains(leak)) {
                    fail("a secret value appeared in " + where + ": " + text.replace(leak, "<SECRET>"));
                }
            }
        }
    }
}
