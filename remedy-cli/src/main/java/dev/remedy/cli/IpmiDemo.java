package dev.remedy.cli;

import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Demo step 8: the native {@code ipmi} agent against the BMC simulator of remedy-simulators (real RMCP+ over UDP on
 * 127.0.0.1): a fleet fenced at once on one I/O thread, a status read through the CLI's runner, and an absent
 * BMC that times out by its deadline.
 */
final class IpmiDemo {

    private static final int FLEET = 50;
    /** The password of every simulated BMC of the demo. */
    static final String PASSWORD = "demo-ipmi-secret";
    private static final String USER = "admin";

    private IpmiDemo() {
    }

    /** Runs the step and returns whether everything ended as expected. */
    static boolean run(CliEnvironment env, ActionRunner runner) throws InterruptedException {
        PrintWriter out = env.out();
        out.println("-- 8. IPMI: " + FLEET + " simulated BMCs on 127.0.0.1 (RMCP+ over UDP, cipher suite 17), fenced at"
                + " once by the native ipmi agent");
        FenceAgentProvider ipmi = env.registry().provider("ipmi");
        try (IpmiBmcSimulator simulator = IpmiBmcSimulator.start()) {
            List<SimulatedBmc> fleet = simulator.addMany(FLEET, spec());
            List<FenceAgent> agents = fleet.stream().map(bmc -> env.registry().create(config(ipmi, bmc))).toList();
            long start = System.nanoTime();
            List<CompletableFuture<FenceOutcome>> offs = agents.stream()
                    .map(agent -> agent.executeAsync(new FenceRequest(FenceAction.OFF, "demo"),
                            FenceContext.start(env.time(), Duration.ofSeconds(10)), Runnable::run))
                    .toList();
            CompletableFuture.allOf(offs.toArray(CompletableFuture[]::new)).join();
            double millis = (System.nanoTime() - start) / 1e6;
            agents.forEach(FenceAgent::close);
            long confirmed = offs.stream().map(CompletableFuture::join)
                    .filter(o -> o.isSuccess() && o.power() == PowerState.OFF).count();
            long readOff = fleet.stream().filter(bmc -> bmc.powerTarget().power() == PowerState.OFF).count();
            int open = fleet.stream().mapToInt(SimulatedBmc::activeSessions).sum();
            out.printf(Locale.ROOT, "   %d of %d OFF confirmed in %.0f ms; %d BMCs read OFF; sessions left open: %d%n",
                    confirmed, FLEET, millis, readOff, open);
            boolean expected = confirmed == FLEET && readOff == FLEET && open == 0;
            out.println("-- 8b. status of one of them through the CLI runner (exit code 2: off)");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(config(ipmi, fleet.get(0)), FenceAction.STATUS,
                    Duration.ofSeconds(10)), ExitCodes.STATUS_OFF);
            SimulatedBmc absent = fleet.get(1).responsive(false);
            out.println("-- 8c. OFF against a BMC that stopped answering: TIMED_OUT by the 2 s deadline");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(config(ipmi, absent), FenceAction.OFF, Duration.ofSeconds(2)),
                    ExitCodes.TIMED_OUT);
            return expected;
        }
    }

    /** A simulated BMC of the demo: its user and {@link #PASSWORD}. */
    static BmcSpec spec() {
        return BmcSpec.builder().user(USER, PASSWORD).build();
    }

    /** The {@code ipmi} agent's parameters for {@code bmc}, all but its password. */
    static Map<String, String> parameters(SimulatedBmc bmc) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("ip", bmc.host());
        parameters.put("ipport", Integer.toString(bmc.port()));
        parameters.put("username", USER);
        parameters.put("poll_interval", "50ms");
        return parameters;
    }

    private static AgentConfig config(FenceAgentProvider ipmi, SimulatedBmc bmc) {
        AgentConfig.Builder builder = ipmi.configure();
        parameters(bmc).forEach(builder::set);
        return builder.secret("password", Secret.of(PASSWORD)).build();
    }
}
