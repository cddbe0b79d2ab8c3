package dev.remedy.cli;

import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.simulators.redfish.SimulatedSystem;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Demo step 9: the {@code redfish} and {@code redfish-pdu} agents against the Redfish simulator of remedy-simulators over
 * TLS on 127.0.0.1, verified by the certificate's pinned fingerprint: a refusal instead of a guess when no
 * system is named, a graceful shutdown that the host ignores followed by ForceOff, a host that never reaches
 * off, and a PDU outlet; every session logged out.
 */
final class RedfishDemo {

    private static final String PASSWORD = "demo-redfish-secret";

    private RedfishDemo() {
    }

    /** Runs the step and returns whether everything ended as expected. */
    static boolean run(CliEnvironment env, ActionRunner runner) throws InterruptedException {
        PrintWriter out = env.out();
        out.println("-- 9. Redfish: a simulated BMC with 3 systems and a PDU on 127.0.0.1 over TLS (certificate"
                + " pinned by its SHA-256 fingerprint)");
        try (RedfishSimulator simulator = RedfishSimulator.start(RedfishSpec.builder().user("admin", PASSWORD)
                .systems("node-1", "node-2", "node-3").outlets("pdu-1", 8).tls(true).build())) {
            FenceAgentProvider redfish = env.registry().provider("redfish");
            FenceAgentProvider pdu = env.registry().provider("redfish-pdu");
            out.println("-- 9a. OFF without naming a system: refused, listing the systems (fence_redfish would take"
                    + " the last one)");
            out.flush();
            boolean expected = DemoCommand.report(out, runner.run(config(redfish, simulator).build(), FenceAction.OFF,
                    Duration.ofSeconds(10)), ExitCodes.REFUSED);

            SimulatedSystem node2 = simulator.system("node-2").gracefulShutdownWorks(false);
            out.println("-- 9b. OFF node-2 with graceful_off_timeout=1s: the OS ignores GracefulShutdown, so ForceOff"
                    + " follows, confirmed by PowerState");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(config(redfish, simulator).set("plug", "node-2")
                    .set("graceful_off_timeout", "1s").build(), FenceAction.OFF, Duration.ofSeconds(10)),
                    ExitCodes.OK);
            out.println("   reset requests node-2 received: " + node2.resets());

            simulator.system("node-3").neverOff(true);
            out.println("-- 9c. OFF node-3, which never reaches Off: TIMED_OUT by the 3 s deadline, never a success");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(config(redfish, simulator).set("plug", "node-3").build(),
                    FenceAction.OFF, Duration.ofSeconds(3)), ExitCodes.TIMED_OUT);

            out.println("-- 9d. OFF outlet 5 of pdu-1 through the redfish-pdu agent");
            out.flush();
            expected &= DemoCommand.report(out, runner.run(config(pdu, simulator).set("pdu", "pdu-1").set("plug", "5").build(),
                    FenceAction.OFF, Duration.ofSeconds(10)), ExitCodes.OK);
            int open = simulator.activeSessions();
            out.println("   Redfish sessions left open on the BMC: " + open + " (of " + simulator.sessionsCreated()
                    + " created)");
            return expected && open == 0;
        }
    }

    private static AgentConfig.Builder config(FenceAgentProvider provider, RedfishSimulator simulator) {
        return provider.configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(simulator.port()))
                .set("username", "admin").secret("password", Secret.of(PASSWORD))
                .set("tls_fingerprint", simulator.certificate().sha256Fingerprint()).set("poll_interval", "50ms");
    }
}
