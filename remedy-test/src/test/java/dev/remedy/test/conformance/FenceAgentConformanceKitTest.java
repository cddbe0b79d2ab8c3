package dev.remedy.test.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.fake.FakeAgentConformanceTest;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.WrappedFakeProvider;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.slf4j.LoggerFactory;

/**
 * The conformance kit catches what it claims to catch: each deliberately broken agent below fails the kit's
 * test for its defect, while an honest wrapper built the same way passes every test.
 */
class FenceAgentConformanceKitTest {

    @Test
    @DisplayName("an honest agent wrapped the same way as the broken ones passes every test of the kit")
    void honestWrapperPassesEverything() {
        assertThat(failedTests(HonestKit.class)).isEmpty();
        assertThat(succeededTests(HonestKit.class)).hasSizeGreaterThanOrEqualTo(12);
    }

    @Test
    @DisplayName("an agent that reports SUCCEEDED when it timed out or failed is caught")
    void catchesSuccessOnTimeout() {
        assertThat(failedTests(SucceedsOnFailureKit.class))
                .contains("deadlineIsRespected", "unreachableIsNeverASuccess", "wrongCredentialsFail");
    }

    @Test
    @DisplayName("an agent that returns long after its deadline is caught")
    void catchesDeadlineOverrun() {
        assertThat(failedTests(OverrunsDeadlineKit.class)).contains("deadlineIsRespected");
    }

    @Test
    @DisplayName("an agent that logs its password is caught, in every test")
    void catchesSecretInLog() {
        assertThat(failedTests(LogsPasswordKit.class)).contains("secretsStayOutOfEveryText", "statusAfterOffReadsOff");
    }

    @Test
    @DisplayName("an agent that logs its password through SLF4J, as agents log, is caught, in every test")
    void catchesSecretInSlf4jLog() {
        assertThat(failedTests(LogsPasswordThroughSlf4jKit.class))
                .contains("secretsStayOutOfEveryText", "statusAfterOffReadsOff");
    }

    @Test
    @DisplayName("when SLF4J lines do not reach the kit (no provider), no test passes blind: each fails and says to add slf4j-jdk14")
    void slf4jLinesOutOfSightFailTheKit() throws Exception {
        try (WithoutSlf4jProvider loader = new WithoutSlf4jProvider()) {
            Class<?> kit = loader.loadClass(LogsPasswordThroughSlf4jKit.class.getName());
            assertThat(kit.getClassLoader()).isSameAs(loader);

            Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(kit)).execute().testEvents();

            assertThat(events.succeeded().count()).as("tests that passed without seeing SLF4J's lines").isZero();
            assertThat(events.failed().stream().map(FenceAgentConformanceKitTest::failure))
                    .hasSizeGreaterThanOrEqualTo(12)
                    .allSatisfy(failure -> assertThat(failure)
                            .hasMessageContaining("SLF4J log lines do not reach java.util.logging")
                            .hasMessageContaining("route SLF4J there in your tests: add org.slf4j:slf4j-jdk14 at test "
                                    + "scope")
                            .hasMessageNotContaining("System.Logger log lines"));
        }
    }

    @Test
    @DisplayName("an agent that puts its password into a failure detail is caught")
    void catchesSecretInOutcome() {
        assertThat(failedTests(PasswordInOutcomeKit.class)).contains("secretsStayOutOfEveryText", "deadlineIsRespected");
    }

    @Test
    @DisplayName("a device that echoes the password into the agent's outcomes, errors and progress passes: the registry masks it")
    void echoingDeviceIsMasked() {
        assertThat(failedTests(EchoingDeviceKit.class)).isEmpty();
        assertThat(succeededTests(EchoingDeviceKit.class)).contains("echoedSecretsStayOutOfEveryText",
                "secretsStayOutOfEveryText");
        assertThat(succeededTests(HonestKit.class)).as("no echoing device configured: the check is skipped")
                .doesNotContain("echoedSecretsStayOutOfEveryText");
    }

    @Test
    @DisplayName("an agent that logs what an echoing device sent is caught: the registry never sees log lines")
    void catchesEchoInLog() {
        assertThat(failedTests(LogsEchoKit.class)).containsExactly("echoedSecretsStayOutOfEveryText");
    }

    @Test
    @DisplayName("an echoing configuration whose device does not echo is caught, so the check never passes blind")
    void catchesDeviceThatDoesNotEcho() {
        assertThat(failedTests(SilentEchoKit.class)).containsExactly("echoedSecretsStayOutOfEveryText");
    }

    @Test
    @DisplayName("an agent that puts its password's HTTP Basic form into an outcome is caught")
    void catchesBasicFormInOutcome() {
        assertThat(failedTests(BasicFormInOutcomeKit.class)).contains("deadlineIsRespected",
                "unreachableIsNeverASuccess");
    }

    @Test
    @DisplayName("an agent whose REBOOT is a reset with no OFF observed is caught")
    void catchesRebootWithoutOff() {
        assertThat(failedTests(ResetForRebootKit.class)).contains("rebootPassesThroughOff", "unreachableIsNeverASuccess");
    }

    @Test
    @DisplayName("an agent that reports OFF before the target reads OFF is caught")
    void catchesUnconfirmedOff() {
        assertThat(failedTests(UnconfirmedOffKit.class)).contains("statusAfterOffReadsOff");
    }

    @Test
    @DisplayName("an agent that swallows interrupts is caught, before and during an action")
    void catchesSwallowedInterrupts() {
        assertThat(failedTests(SwallowsInterruptsKit.class))
                .contains("interruptBeforeStartChangesNothing", "interruptDuringTheActionStopsIt");
    }

    @Test
    @DisplayName("an agent that reports only the first configuration problem is caught")
    void catchesIncompleteConfigurationErrors() {
        assertThat(failedTests(FirstProblemOnlyKit.class)).containsExactly("badConfigurationNamesEveryProblem");
    }

    @Test
    @DisplayName("the fabric and soft checks do not run for a power agent")
    void kindChecksSkipAPowerAgent() {
        assertThat(succeededTests(HonestKit.class)).doesNotContain("fabricAgentRefusesReboot",
                "fabricOffThenOnRoundTrip", "softAgentRefusesOffAndOn", "softRebootNeverClaimsOff");
    }

    @Test
    @DisplayName("an honest fabric agent (no REBOOT) passes every test of the kit, the fabric checks included")
    void honestFabricPassesEverything() {
        assertThat(failedTests(HonestFabricKit.class)).isEmpty();
        assertThat(succeededTests(HonestFabricKit.class))
                .contains("fabricAgentRefusesReboot", "fabricOffThenOnRoundTrip", "statusAfterOffReadsOff",
                        "deadlineIsRespected", "unsupportedActionsAnswerUnsupported")
                .doesNotContain("rebootPassesThroughOff", "softAgentRefusesOffAndOn");
    }

    @Test
    @DisplayName("a fabric agent that power-cycles on REBOOT is caught")
    void catchesFabricReboot() {
        assertThat(failedTests(RebootingFabricKit.class)).contains("fabricAgentRefusesReboot");
    }

    @Test
    @DisplayName("a fabric agent whose ON reports success without un-fencing the port is caught")
    void catchesFabricThatStaysIsolated() {
        assertThat(failedTests(StuckFabricKit.class)).contains("fabricOffThenOnRoundTrip");
    }

    @Test
    @DisplayName("an honest soft agent (REBOOT, no OFF or ON) passes the kit: OFF checks skipped, REBOOT checked instead")
    void honestSoftPassesEverything() {
        assertThat(failedTests(HonestSoftKit.class)).isEmpty();
        assertThat(succeededTests(HonestSoftKit.class))
                .contains("softAgentRefusesOffAndOn", "softRebootNeverClaimsOff", "providerDescribesItself",
                        "deadlineIsRespected", "wrongCredentialsFail", "interruptBeforeStartChangesNothing",
                        "interruptDuringTheActionStopsIt", "unsupportedActionsAnswerUnsupported")
                .doesNotContain("offWhenAlreadyOffSucceeds", "statusAfterOffReadsOff", "onAfterOffReadsOn",
                        "rebootPassesThroughOff", "fabricAgentRefusesReboot");
    }

    @Test
    @DisplayName("a soft agent that powers the target off on OFF is caught")
    void catchesSoftThatPowersOff() {
        assertThat(failedTests(PoweringSoftKit.class)).contains("softAgentRefusesOffAndOn");
    }

    @Test
    @DisplayName("a soft agent whose REBOOT claims the target is off is caught")
    void catchesSoftRebootClaimingOff() {
        assertThat(failedTests(SoftClaimingOffKit.class)).contains("softRebootNeverClaimsOff");
    }

    private static Set<String> failedTests(Class<?> kit) {
        return testsWith(kit, true);
    }

    private static Set<String> succeededTests(Class<?> kit) {
        return testsWith(kit, false);
    }

    private static Throwable failure(Event event) {
        return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow();
    }

    /**
     * Loads SLF4J's API, remedy's classes and these tests again from where they came from, but without any SLF4J
     * provider: SLF4J finds none and drops every line, as in an agent's test run that lacks slf4j-jdk14. JUnit,
     * AssertJ and the JDK (java.util.logging with it) are the parent's, so the kit runs on the same engine.
     */
    private static final class WithoutSlf4jProvider extends URLClassLoader {

        WithoutSlf4jProvider() {
            super(Stream.of(LoggerFactory.class, FenceAgent.class, FenceAgentConformanceKit.class,
                            FenceAgentConformanceKitTest.class)
                    .map(c -> c.getProtectionDomain().getCodeSource().getLocation()).distinct().toArray(URL[]::new),
                    FenceAgentConformanceKitTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("org.slf4j.") && !name.startsWith("dev.remedy.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }

        /** Only this loader's own resources: the parent's slf4j-jdk14 would register its provider otherwise. */
        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return findResources(name);
        }
    }

    private static Set<String> testsWith(Class<?> kit, boolean failed) {
        var events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(kit)).execute().testEvents();
        return (failed ? events.failed() : events.succeeded()).stream()
                .map(Event::getTestDescriptor)
                .map(d -> d.getSource().filter(MethodSource.class::isInstance)
                        .map(s -> ((MethodSource) s).getMethodName()).orElse(d.getDisplayName()))
                .collect(Collectors.toSet());
    }

    // ---- a kit over the fake agent, with the agent wrapped by a breaker ----

    /** Runs the kit against the fake agent wrapped by {@link #breaker}, on the kit's lab. */
    abstract static class WrappedFakeKit extends FakeAgentConformanceTest {

        /** The breaker under test, fencing the targets of {@code lab}. */
        abstract WrappingProvider breaker(FakePowerLab lab);

        @Override
        protected FenceAgentProvider provider() {
            return breaker(lab());
        }
    }

    /**
     * A provider of the fake agent under another type id, whose agents a subclass may break. Each subclass has the
     * public no-argument constructor ServiceLoader needs (a lab of its own) and one taking the kit's lab.
     */
    public abstract static class WrappingProvider extends WrappedFakeProvider {
        WrappingProvider() {
        }

        WrappingProvider(FakePowerLab lab) {
            super(lab);
        }

        @Override
        protected FenceAgent wrap(FenceAgent honest, AgentConfig config) {
            Secret password = config.secret("password").orElseThrow();
            String plug = config.string("plug");
            return (request, context) -> execute(honest, request, context, password, plug);
        }

        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            return honest.execute(request, context);
        }
    }

    /** The control: wraps without breaking anything. */
    public static final class Honest extends WrappingProvider {
        public Honest() {
        }

        Honest(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "honest-wrapper";
        }
    }

    /** Turns every failure into a success. */
    public static final class SucceedsOnFailure extends WrappingProvider {
        public SucceedsOnFailure() {
        }

        SucceedsOnFailure(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "succeeds-on-failure";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            FenceOutcome outcome = honest.execute(request, context);
            return outcome.isSuccess() ? outcome : FenceOutcome.succeeded(PowerState.OFF, "surely off by now");
        }
    }

    /** Keeps waiting for half a minute after a failure. */
    public static final class OverrunsDeadline extends WrappingProvider {
        public OverrunsDeadline() {
        }

        OverrunsDeadline(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "overruns-deadline";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            FenceOutcome outcome = honest.execute(request, context);
            if (!outcome.isSuccess()) {
                context.time().sleep(Duration.ofSeconds(30));
            }
            return outcome;
        }
    }

    /** Logs the password at debug level. */
    public static final class LogsPassword extends WrappingProvider {
        public LogsPassword() {
        }

        LogsPassword(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "logs-password";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            System.getLogger("broken").log(System.Logger.Level.DEBUG, "login with " + password.reveal());
            return honest.execute(request, context);
        }
    }

    /** Logs the password at debug level through SLF4J, as a parameter of the message. */
    public static final class LogsPasswordThroughSlf4j extends WrappingProvider {
        public LogsPasswordThroughSlf4j() {
        }

        LogsPasswordThroughSlf4j(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "logs-password-through-slf4j";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            LoggerFactory.getLogger("broken").debug("login with {}", password.reveal());
            return honest.execute(request, context);
        }
    }

    /** Puts the password into the detail of a failure. */
    public static final class PasswordInOutcome extends WrappingProvider {
        public PasswordInOutcome() {
        }

        PasswordInOutcome(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "password-in-outcome";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            FenceOutcome outcome = honest.execute(request, context);
            return outcome.isSuccess() ? outcome : FenceOutcome.of(outcome.status(), outcome.power(),
                    outcome.detail() + " (tried password " + password.reveal() + ")");
        }
    }

    /** Echoes the password, as a device that quotes it would, into everything it reports for an echoing target. */
    public static class EchoingDevice extends WrappingProvider {
        public EchoingDevice() {
        }

        EchoingDevice(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "echoing-device";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (!plug.startsWith(ECHOING)) {
                return honest.execute(request, context);
            }
            context.progress("the device said: logged in with " + password.reveal());
            return FenceOutcome.failed(PowerState.UNKNOWN, "the device answered {\"Password\": \"" + password.reveal()
                    + "\"}").withCause(new IllegalStateException("echo of " + password.reveal()));
        }
    }

    /** Like {@link EchoingDevice}, and logs what the device sent. */
    public static final class LogsEcho extends EchoingDevice {
        public LogsEcho() {
        }

        LogsEcho(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "logs-echo";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (plug.startsWith(ECHOING)) {
                LoggerFactory.getLogger("broken").debug("the device answered {}", password.reveal());
            }
            return super.execute(honest, request, context, password, plug);
        }
    }

    /** Puts the HTTP Basic form of the user name and password into the detail of a failure. */
    public static final class BasicFormInOutcome extends WrappingProvider {
        public BasicFormInOutcome() {
        }

        BasicFormInOutcome(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "basic-form-in-outcome";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            FenceOutcome outcome = honest.execute(request, context);
            String basic = Base64.getEncoder().encodeToString(("admin:" + password.reveal())
                    .getBytes(StandardCharsets.UTF_8));
            return outcome.isSuccess() ? outcome : FenceOutcome.of(outcome.status(), outcome.power(),
                    outcome.detail() + " (sent Authorization: Basic " + basic + ")");
        }
    }

    /** Answers REBOOT as a hardware reset would: success, with no OFF ever observed. */
    public static final class ResetForReboot extends WrappingProvider {
        public ResetForReboot() {
        }

        ResetForReboot(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "reset-for-reboot";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (request.action() == FenceAction.REBOOT) {
                return FenceOutcome.succeeded(PowerState.ON, "reset sent");
            }
            return honest.execute(request, context);
        }
    }

    /** Sends OFF and reports OFF at once, without reading it back. */
    public static final class UnconfirmedOff extends WrappingProvider {
        public UnconfirmedOff() {
        }

        UnconfirmedOff(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "unconfirmed-off";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (request.action() == FenceAction.OFF) {
                lab().find(plug).orElseThrow().command(PowerState.OFF);
                return FenceOutcome.succeeded(PowerState.OFF, "off command sent");
            }
            return honest.execute(request, context);
        }
    }

    /** Catches InterruptedException and tries again until the deadline. */
    public static final class SwallowsInterrupts extends WrappingProvider {
        public SwallowsInterrupts() {
        }

        SwallowsInterrupts(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "swallows-interrupts";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) {
            while (true) {
                try {
                    return honest.execute(request, context);
                } catch (InterruptedException ignored) {
                    // the defect under test: the interrupt is dropped and the action goes on
                }
            }
        }
    }

    /** Reports only the first configuration problem. */
    public static final class FirstProblemOnly extends WrappingProvider {
        public FirstProblemOnly() {
        }

        FirstProblemOnly(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "first-problem-only";
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            try {
                return super.create(config);
            } catch (InvalidConfigurationException e) {
                throw new InvalidConfigurationException(type(), e.problems().subList(0, 1));
            }
        }
    }

    /** A fabric agent over the fake: OFF isolates, ON un-fences, REBOOT is unsupported. */
    public static class HonestFabric extends WrappingProvider {
        public HonestFabric() {
        }

        HonestFabric(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "honest-fabric";
        }

        @Override
        public FencingKind fencingKind() {
            return FencingKind.FABRIC;
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.complementOf(EnumSet.of(FenceAction.REBOOT));
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (request.action() == FenceAction.REBOOT) {
                return FenceOutcome.unsupported(type(), FenceAction.REBOOT);
            }
            return honest.execute(request, context);
        }
    }

    /** A fabric agent that does not list REBOOT but power-cycles the port when asked. */
    public static final class RebootingFabric extends HonestFabric {
        public RebootingFabric() {
        }

        RebootingFabric(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "rebooting-fabric";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            return honest.execute(request, context);
        }
    }

    /** A fabric agent whose ON reports the port enabled without enabling it. */
    public static final class StuckFabric extends HonestFabric {
        public StuckFabric() {
        }

        StuckFabric(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "stuck-fabric";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (request.action() == FenceAction.ON) {
                return FenceOutcome.succeeded(PowerState.ON, "port enable sent");
            }
            return super.execute(honest, request, context, password, plug);
        }
    }

    /** A soft agent over the fake: REBOOT only (besides STATUS, MONITOR and LIST); OFF and ON are unsupported. */
    public static class HonestSoft extends WrappingProvider {
        public HonestSoft() {
        }

        HonestSoft(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "honest-soft";
        }

        @Override
        public FencingKind fencingKind() {
            return FencingKind.SOFT;
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.REBOOT, FenceAction.STATUS, FenceAction.MONITOR, FenceAction.LIST);
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (!supportedActions().contains(request.action())) {
                return FenceOutcome.unsupported(type(), request.action());
            }
            return honest.execute(request, context);
        }
    }

    /** A soft agent that does not list OFF but powers the target off when asked. */
    public static final class PoweringSoft extends HonestSoft {
        public PoweringSoft() {
        }

        PoweringSoft(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "powering-soft";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            if (request.action() == FenceAction.OFF) {
                return honest.execute(request, context);
            }
            return super.execute(honest, request, context, password, plug);
        }
    }

    /** A soft agent whose REBOOT answers that the target is off. */
    public static final class SoftClaimingOff extends HonestSoft {
        public SoftClaimingOff() {
        }

        SoftClaimingOff(FakePowerLab lab) {
            super(lab);
        }

        @Override
        public String type() {
            return "soft-claiming-off";
        }

        @Override
        FenceOutcome execute(FenceAgent honest, FenceRequest request, FenceContext context, Secret password,
                             String plug) throws InterruptedException {
            FenceOutcome outcome = super.execute(honest, request, context, password, plug);
            return request.action() == FenceAction.REBOOT && outcome.isSuccess()
                    ? FenceOutcome.succeeded(PowerState.OFF, "sysrq reboot sent; surely off by now") : outcome;
        }
    }

    static final class HonestFabricKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new HonestFabric(lab);
        }
    }

    static final class RebootingFabricKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new RebootingFabric(lab);
        }
    }

    static final class StuckFabricKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new StuckFabric(lab);
        }
    }

    static final class HonestSoftKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new HonestSoft(lab);
        }
    }

    static final class PoweringSoftKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new PoweringSoft(lab);
        }
    }

    static final class SoftClaimingOffKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new SoftClaimingOff(lab);
        }
    }

    /** Plugs whose fake device echoes the password, for {@link EchoingDevice}. */
    static final String ECHOING = "echoing-";

    /** A kit whose echoing configuration names a target of {@link #ECHOING}, with the reachable target's password. */
    abstract static class EchoingKit extends WrappedFakeKit {
        @Override
        protected List<AgentConfig> echoingConfigs() {
            return List.of(provider().configure().set("plug", ECHOING + "kit")
                    .secret("password", reachableConfig().secret("password").orElseThrow()).build());
        }
    }

    static final class EchoingDeviceKit extends EchoingKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new EchoingDevice(lab);
        }
    }

    static final class LogsEchoKit extends EchoingKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new LogsEcho(lab);
        }
    }

    /** Configures an echoing device, but the agent is honest and nothing echoes. */
    static final class SilentEchoKit extends EchoingKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new Honest(lab);
        }
    }

    static final class BasicFormInOutcomeKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new BasicFormInOutcome(lab);
        }
    }

    static final class HonestKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new Honest(lab);
        }
    }

    static final class SucceedsOnFailureKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new SucceedsOnFailure(lab);
        }
    }

    static final class OverrunsDeadlineKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new OverrunsDeadline(lab);
        }
    }

    static final class LogsPasswordKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new LogsPassword(lab);
        }
    }

    static final class LogsPasswordThroughSlf4jKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new LogsPasswordThroughSlf4j(lab);
        }
    }

    static final class PasswordInOutcomeKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new PasswordInOutcome(lab);
        }
    }

    static final class ResetForRebootKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new ResetForReboot(lab);
        }
    }

    static final class UnconfirmedOffKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new UnconfirmedOff(lab);
        }
    }

    static final class SwallowsInterruptsKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new SwallowsInterrupts(lab);
        }
    }

    static final class FirstProblemOnlyKit extends WrappedFakeKit {
        @Override
        WrappingProvider breaker(FakePowerLab lab) {
            return new FirstProblemOnly(lab);
        }
    }
}
