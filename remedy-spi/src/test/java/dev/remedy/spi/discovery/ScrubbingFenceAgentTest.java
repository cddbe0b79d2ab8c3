package dev.remedy.spi.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FenceAgentRegistry.create: agents whose texts mask the configured secrets")
class ScrubbingFenceAgentTest {

    private static final String PASSWORD = "echoed-password-1";
    private static final FenceRequest STATUS = FenceRequest.of(FenceAction.STATUS);

    private final List<String> progress = new ArrayList<>();
    private final FenceContext context = FenceContext.start(TimeSource.system(), Duration.ofSeconds(10),
            progress::add);

    /** A provider of type {@code echo} whose agents {@code device} builds from the configured password. */
    private static final class EchoProvider implements FenceAgentProvider {
        private final Function<String, FenceAgent> device;

        EchoProvider(Function<String, FenceAgent> device) {
            this.device = device;
        }

        @Override
        public String type() {
            return "echo";
        }

        @Override
        public String description() {
            return "an agent whose device echoes the password";
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return List.of(
                    ParameterDescriptor.builder("username", ParameterType.STRING).defaultValue("admin")
                            .description("login").build(),
                    ParameterDescriptor.builder("password", ParameterType.STRING).required().secret()
                            .description("password").build());
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.allOf(FenceAction.class);
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            return device.apply(config.requireValid().secret("password").orElseThrow().reveal());
        }
    }

    private static FenceAgent create(Function<String, FenceAgent> device) {
        EchoProvider provider = new EchoProvider(device);
        return FenceAgentRegistry.of(provider).create(provider.configure().set("password", PASSWORD).build());
    }

    @Test
    @DisplayName("execute: the outcome's detail, cause and plugs and every progress line mask the password")
    void executeMasksOutcomeAndProgress() throws InterruptedException {
        FenceAgent agent = create(password -> (request, context) -> {
            context.progress("logging in with " + password);
            return FenceOutcome.failed(PowerState.UNKNOWN, "answered HTTP 400: body: {\"Password\":\"" + password
                    + "\"}").withCause(new IllegalStateException("echo " + password))
                    .withPlugs(List.of(new Plug("1", password, PowerState.ON)));
        });

        FenceOutcome outcome = agent.execute(STATUS, context);

        assertThat(outcome.detail()).isEqualTo("answered HTTP 400: body: {\"Password\":\"" + Secret.MASK + "\"}");
        assertThat(outcome.cause()).hasValueSatisfying(cause -> assertThat(cause)
                .hasMessage("java.lang.IllegalStateException: echo " + Secret.MASK));
        assertThat(outcome.plugs()).containsExactly(new Plug("1", Secret.MASK, PowerState.ON));
        assertThat(progress).containsExactly("logging in with " + Secret.MASK);
    }

    @Test
    @DisplayName("execute: an exception that quotes the Basic header is replaced, keeping its class name")
    void executeMasksThrownException() {
        String basic = Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        FenceAgent agent = create(password -> (request, context) -> {
            throw new IllegalStateException("refused Authorization: Basic " + basic);
        });

        Throwable thrown = catchThrowable(() -> agent.execute(STATUS, context));

        assertThat(thrown).isInstanceOf(RuntimeException.class)
                .hasMessage("java.lang.IllegalStateException: refused Authorization: Basic " + Secret.MASK + "=");
    }

    @Test
    @DisplayName("execute: an interrupt without a secret passes as it is")
    void executeKeepsInterrupts() {
        InterruptedException stop = new InterruptedException("fence action interrupted");
        FenceAgent agent = create(password -> (request, context) -> {
            throw stop;
        });

        assertThat(catchThrowable(() -> agent.execute(STATUS, context))).isSameAs(stop);
    }

    @Test
    @DisplayName("executeAsync: the future's outcome and failure mask the password")
    void executeAsyncMasksOutcomeAndFailure() throws Exception {
        FenceAgent succeeding = create(password -> (request, context) -> FenceOutcome.succeeded(PowerState.ON,
                "read ON as " + password));
        FenceAgent failing = create(password -> (request, context) -> {
            throw new IllegalStateException("cannot parse " + password);
        });

        FenceOutcome outcome = succeeding.executeAsync(STATUS, context, Runnable::run).get();
        Throwable failure = catchThrowable(() -> failing.executeAsync(STATUS, context, Runnable::run).get());

        assertThat(outcome.detail()).isEqualTo("read ON as " + Secret.MASK);
        assertThat(failure).isInstanceOf(ExecutionException.class).cause()
                .hasMessage("java.lang.IllegalStateException: cannot parse " + Secret.MASK);
    }

    @Test
    @DisplayName("executeAsync: cancelling the returned future cancels the agent's, and a cancellation stays one")
    void executeAsyncPassesCancellation() {
        CompletableFuture<FenceOutcome> running = new CompletableFuture<>();
        FenceAgent agent = create(password -> new FenceAgent() {
            @Override
            public FenceOutcome execute(FenceRequest request, FenceContext context) {
                throw new AssertionError("executeAsync is overridden");
            }

            @Override
            public CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
                    Executor executor) {
                return running;
            }
        });

        CompletableFuture<FenceOutcome> result = agent.executeAsync(STATUS, context, Runnable::run);
        assertThat(result).isNotDone();
        result.cancel(true);

        assertThat(running).isCancelled();

        CompletableFuture<FenceOutcome> again = new CompletableFuture<>();
        FenceAgent cancelledByItself = create(password -> new FenceAgent() {
            @Override
            public FenceOutcome execute(FenceRequest request, FenceContext context) {
                throw new AssertionError("executeAsync is overridden");
            }

            @Override
            public CompletableFuture<FenceOutcome> executeAsync(FenceRequest request, FenceContext context,
                    Executor executor) {
                return again;
            }
        });
        CompletableFuture<FenceOutcome> second = cancelledByItself.executeAsync(STATUS, context, Runnable::run);
        again.completeExceptionally(new CancellationException("OFF was interrupted"));
        assertThat(catchThrowable(second::join)).isInstanceOf(CancellationException.class);
    }

    @Test
    @DisplayName("validate, close and toString mask the password too")
    void validateCloseAndToString() throws InterruptedException {
        FenceAgent agent = create(password -> new FenceAgent() {
            @Override
            public FenceOutcome execute(FenceRequest request, FenceContext context) {
                return FenceOutcome.succeeded(PowerState.UNKNOWN, "logged in as admin/" + password);
            }

            @Override
            public void close() {
                throw new IllegalStateException("logout of admin/" + password + " failed");
            }

            @Override
            public String toString() {
                return "EchoAgent[admin/" + password + "]";
            }
        });

        assertThat(agent.validate(context).detail()).isEqualTo("logged in as admin/" + Secret.MASK);
        assertThat(catchThrowable(agent::close))
                .hasMessage("java.lang.IllegalStateException: logout of admin/" + Secret.MASK + " failed");
        assertThat(agent).hasToString("EchoAgent[admin/" + Secret.MASK + "]");
    }

    @Test
    @DisplayName("create: a refusal that quotes the password is masked, one that does not keeps its type")
    void createMasksRefusals() {
        EchoProvider quoting = new EchoProvider(password -> {
            throw new InvalidConfigurationException("echo", List.of(new ConfigProblem("password",
                    "'" + password + "' is too long", "give at most 16 characters")));
        });
        Throwable masked = catchThrowable(() -> FenceAgentRegistry.of(quoting)
                .create(quoting.configure().set("password", PASSWORD).build()));
        assertThat(masked).hasMessageContaining(InvalidConfigurationException.class.getName())
                .hasMessageContaining("'" + Secret.MASK + "' is too long").hasMessageNotContaining(PASSWORD);

        EchoProvider plain = new EchoProvider(password -> (request, context) -> FenceOutcome.refused("never"));
        Throwable refused = catchThrowable(() -> FenceAgentRegistry.of(plain).create(plain.configure().build()));
        assertThat(refused).isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("password");

        Throwable unknown = catchThrowable(() -> FenceAgentRegistry.of(plain)
                .create(AgentConfig.builder("ipmi", List.of()).build()));
        assertThat(unknown).isInstanceOf(UnknownAgentException.class);
    }
}
