package dev.remedy.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.core.flow.FenceEvent;
import dev.remedy.core.flow.FenceState;
import dev.remedy.core.flow.FlowSettings;
import dev.remedy.core.plan.FenceStep;
import dev.remedy.core.plan.NodePlan;
import dev.remedy.core.plan.ResolvedMethod;
import dev.remedy.core.plan.StepPlan;
import dev.remedy.core.store.InMemoryStateStore;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.cluster.SimulatedCluster;
import dev.remedy.test.fake.FakePowerLab;
import dev.remedy.test.fake.WrappedFakeProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A device that echoes the password puts it into what its agent reports; the engine keeps it out of its records,
 * history, events and log lines all the same.
 */
class EchoedSecretEngineTest {

    private static final String PASSWORD = "echoed-engine-password";

    private final FakeTimeSource time = new FakeTimeSource();
    private final String node = "node-" + UUID.randomUUID();
    private final FakePowerLab lab = new FakePowerLab();
    private final SimulatedCluster cluster = new SimulatedCluster().node(node, 2);
    private final InMemoryStateStore store = new InMemoryStateStore();
    private final List<FenceEvent> events = new ArrayList<>();
    private final EngineLog log = EngineLog.start();

    EchoedSecretEngineTest() {
        lab.create(node, time).password(Secret.of(PASSWORD));
    }

    @AfterEach
    void stopLog() {
        log.close();
    }

    @Test
    @DisplayName("an agent whose outcomes and progress echo the password: no record, event or log line holds it")
    void echoInOutcomesAndProgress() {
        FenceEngine engine = engine(password -> (request, context) -> {
            context.progress("logging in with " + password);
            return FenceOutcome.failed(PowerState.UNKNOWN, "the BMC answered 400: {\"Password\":\""
                    + password + "\"}").withCause(new IllegalStateException("reply echoed " + password));
        });

        runUntilSettled(engine);

        assertThat(engine.record(node).orElseThrow().state()).isEqualTo(FenceState.ERROR);
        assertThat(engine.history().of(node)).extracting(FenceEvent.OperationFinished::detail)
                .contains("bmc: the BMC answered 400: {\"Password\":\"" + Secret.MASK + "\"}");
        assertNoPasswordAnywhere(engine);
        assertThat(log.lines()).as("the engine logged the agent's progress").anySatisfy(line ->
                assertThat(line).contains("logging in with " + Secret.MASK));
    }

    @Test
    @DisplayName("an agent that throws with the password in the message: the engine's warning and records mask it")
    void echoInThrownException() {
        FenceEngine engine = engine(password -> (request, context) -> {
            throw new IllegalStateException("cannot parse reply {\"Password\":\"" + password + "\"}");
        });

        runUntilSettled(engine);

        assertThat(engine.record(node).orElseThrow().state()).isEqualTo(FenceState.ERROR);
        assertThat(log.lines()).as("the engine warned of the failed operation").anySatisfy(line ->
                assertThat(line).contains("WARNING").contains("IllegalStateException"));
        assertNoPasswordAnywhere(engine);
    }

    private void assertNoPasswordAnywhere(FenceEngine engine) {
        assertThat(engine.record(node).orElseThrow().toString()).doesNotContain(PASSWORD);
        assertThat(engine.history().of(node).toString()).doesNotContain(PASSWORD);
        assertThat(events.toString()).doesNotContain(PASSWORD);
        assertThat(log.lines()).isNotEmpty().allSatisfy(line -> assertThat(line).doesNotContain(PASSWORD));
    }

    private void runUntilSettled(FenceEngine engine) {
        engine.decide(node, "NotReady");
        for (int i = 0; i < 200 && !engine.record(node).orElseThrow().isSettled(); i++) {
            time.advance(Duration.ofSeconds(15));
            engine.tick();
        }
    }

    /** An engine whose one method uses an agent built by {@code careless} from the configured password. */
    private FenceEngine engine(Function<String, FenceAgent> careless) {
        WrappedFakeProvider provider = new WrappedFakeProvider(lab) {
            @Override
            public String type() {
                return "careless";
            }

            @Override
            protected FenceAgent wrap(FenceAgent honest, AgentConfig config) {
                return careless.apply(config.secret("password").orElseThrow().reveal());
            }
        };
        ResolvedMethod bmc = new ResolvedMethod("bmc", "careless", provider.configure().set("plug", node)
                .secret("password", Secret.of(PASSWORD)).build());
        NodePlan plan = new NodePlan(node, "default", Map.of(
                FenceStep.ISOLATION, StepPlan.none(Duration.ofSeconds(60)),
                FenceStep.POWER_MANAGEMENT, new StepPlan(Duration.ofSeconds(60), 1, List.of(List.of(bmc))),
                FenceStep.RECOVERY, StepPlan.none(Duration.ofSeconds(60))));
        FenceEngine engine = FenceEngine.builder().store(store).cluster(cluster)
                .agents(FenceAgentRegistry.of(provider))
                .plans(n -> n.equals(node) ? Optional.of(plan) : Optional.empty())
                .settings(FlowSettings.ofDefaults()).time(time).executor(Runnable::run).listener(events::add).build();
        engine.start();
        return engine;
    }

    /** The engine's log lines at every level, as text with their parameters and thrown chain. */
    private static final class EngineLog extends Handler {

        private final Logger logger = Logger.getLogger(FenceEngine.class.getName());
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final Level saved = logger.getLevel();

        static EngineLog start() {
            EngineLog log = new EngineLog();
            log.logger.setLevel(Level.ALL);
            log.logger.addHandler(log);
            return log;
        }

        List<String> lines() {
            synchronized (lines) {
                return List.copyOf(lines);
            }
        }

        @Override
        public void publish(LogRecord entry) {
            StringBuilder text = new StringBuilder(entry.getLevel() + " " + entry.getMessage());
            if (entry.getParameters() != null) {
                for (Object parameter : entry.getParameters()) {
                    text.append(" | ").append(parameter);
                }
            }
            for (Throwable t = entry.getThrown(); t != null; t = t.getCause()) {
                text.append(" | thrown: ").append(t);
            }
            lines.add(text.toString());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
            logger.setLevel(saved);
        }
    }
}
