package dev.remedy.cli;

import dev.remedy.core.policy.Policy;
import dev.remedy.core.policy.PolicyLoader;
import dev.remedy.simulation.PolicySimulation;
import dev.remedy.simulation.Scenario;
import dev.remedy.simulation.ScenarioReader;
import dev.remedy.simulation.Timeline;
import dev.remedy.simulation.TimelineEntry;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerLab;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code remedy demo}: the agents remedy found, then a simulated node fenced with the built-in {@code fake}
 * agent: status, OFF confirmed by a status read, ON, and an unreachable node whose timeout is reported as such,
 * never as a success; policy simulations; then the native {@code ipmi} agent against simulated BMCs over real
 * UDP, the Redfish agents against a simulated BMC over TLS, the SSH agents against simulated devices, the SNMP
 * agent switching a dual-PSU node's two outlets on a simulated PDU, and remedy as a Kubernetes operator against
 * fabric8's mock API server. Exits 0 only if every step ended as a fencing library must end it.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Show remedy at work against simulated machines.")
final class DemoCommand implements Callable<Integer> {

    private static final String NODE = "demo-node-1";
    private static final String DEAD_NODE = FakePowerLab.UNREACHABLE_PREFIX + "-demo-node-2";
    private static final Secret PASSWORD = Secret.of("demo-bmc-password");

    @ParentCommand
    private RemedyCli cli;

    @Option(names = "--verbose", description = "print stack traces of errors")
    private boolean verbose;

    @Override
    public Integer call() throws InterruptedException {
        CliEnvironment env = cli.environment();
        PrintWriter out = env.out();
        out.println("== remedy demo");
        out.println("-- 1. agents discovered with ServiceLoader");
        env.registry().providers().forEach(p -> out.println("   " + p.type() + ": " + p.description()));
        FakeFenceAgentProvider fake = (FakeFenceAgentProvider) env.registry().provider(FakeFenceAgentProvider.TYPE);
        fake.lab().create(NODE, env.time()).password(PASSWORD).transitionTime(Duration.ofSeconds(1));
        fake.lab().create(DEAD_NODE, env.time()).reachable(false);
        AgentConfig node = config(fake, NODE);
        ActionRunner runner = new ActionRunner(env);
        List<Step> steps = List.of(
                new Step("2. status of " + NODE, node, FenceAction.STATUS, Duration.ofSeconds(20), ExitCodes.OK),
                new Step("3. fence " + NODE + ": OFF, confirmed by reading the power state back", node,
                        FenceAction.OFF, Duration.ofSeconds(20), ExitCodes.OK),
                new Step("4. status again: OFF (exit code 2, as the fence agents report it)", node,
                        FenceAction.STATUS, Duration.ofSeconds(20), ExitCodes.STATUS_OFF),
                new Step("5. power " + NODE + " back ON", node, FenceAction.ON, Duration.ofSeconds(20), ExitCodes.OK),
                new Step("6. fence " + DEAD_NODE + ", whose BMC never answers: a timeout is never a success",
                        config(fake, DEAD_NODE), FenceAction.OFF, Duration.ofSeconds(3), ExitCodes.TIMED_OUT));
        boolean allAsExpected = true;
        for (Step step : steps) {
            out.println("-- " + step.title);
            out.flush();
            int code = runner.run(step.config, step.action, step.budget);
            allAsExpected &= report(out, code, step.expectedExit);
        }
        allAsExpected &= simulations(out);
        allAsExpected &= IpmiDemo.run(env, runner);
        allAsExpected &= RedfishDemo.run(env, runner);
        allAsExpected &= SshDemo.run(env, runner);
        allAsExpected &= SnmpDemo.run(env, runner);
        allAsExpected &= KubeDemo.run(env);
        out.println(allAsExpected ? "== demo finished: every step ended as expected"
                : "== demo finished with unexpected results");
        out.flush();
        return allAsExpected ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** Prints a step's exit code and whether it is the one wanted; returns whether it is. */
    static boolean report(PrintWriter out, int code, int wanted) {
        boolean expected = code == wanted;
        out.println("   exit code " + code + (expected ? " (as expected)" : " (UNEXPECTED: wanted " + wanted + ")"));
        return expected;
    }

    /** Step 7: the remedy policy of the examples against three failures of a simulated cluster, on fake time. */
    private static boolean simulations(PrintWriter out) {
        List<Policy> policies = new PolicyLoader().parse(resource("policies.yaml"), "demo/policies.yaml").policies();
        boolean expected = true;
        for (Simulation simulation : List.of(
                new Simulation("single-node-failure.yaml", "node-3 fenced, released, recovered",
                        t -> t.fencedNodes().equals(List.of("node-3"))),
                new Simulation("rack-switch-failure.yaml", "nothing fenced: shared infrastructure suspected",
                        t -> t.fencedNodes().isEmpty() && !t.of(TimelineEntry.Kind.SHARED_INFRASTRUCTURE).isEmpty()),
                new Simulation("sixty-percent-unreachable.yaml", "storm: fencing refused, then one node after cooldown",
                        t -> !t.of(TimelineEntry.Kind.STORM_STARTED).isEmpty() && t.fencedNodes().size() <= 1))) {
            Scenario scenario = new ScenarioReader().parse(resource(simulation.file), "demo/" + simulation.file);
            Timeline timeline = PolicySimulation.run(policies, scenario);
            out.println("-- 7. policy simulation: " + scenario.name() + " (expect: " + simulation.expectation + ")");
            timeline.entries().stream().filter(e -> HEADLINES.contains(e.kind())).limit(12)
                    .forEach(e -> out.println("   " + e));
            boolean met = simulation.check.test(timeline);
            expected &= met;
            out.println(met ? "   as expected" : "   UNEXPECTED");
        }
        return expected;
    }

    private static String resource(String name) {
        try (InputStream in = DemoCommand.class.getResourceAsStream("demo/" + name)) {
            if (in == null) {
                throw new IllegalStateException("demo resource " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Set<TimelineEntry.Kind> HEADLINES = EnumSet.of(TimelineEntry.Kind.STARTED,
            TimelineEntry.Kind.FENCED, TimelineEntry.Kind.RELEASED, TimelineEntry.Kind.RECOVERED,
            TimelineEntry.Kind.REFUSED, TimelineEntry.Kind.SHARED_INFRASTRUCTURE, TimelineEntry.Kind.STORM_STARTED,
            TimelineEntry.Kind.STORM_ENDED, TimelineEntry.Kind.ESCALATED);

    private record Simulation(String file, String expectation, Predicate<Timeline> check) {
    }

    private static AgentConfig config(FenceAgentProvider fake, String plug) {
        return fake.configure().set("plug", plug).secret("password", PASSWORD).set("poll_interval", "250ms").build();
    }

    private record Step(String title, AgentConfig config, FenceAction action, Duration budget, int expectedExit) {
    }
}
