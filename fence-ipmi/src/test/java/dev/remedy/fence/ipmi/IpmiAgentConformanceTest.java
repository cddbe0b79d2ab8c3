package dev.remedy.fence.ipmi;

import dev.remedy.simulators.ipmi.BmcSpec;
import dev.remedy.simulators.ipmi.IpmiBmcSimulator;
import dev.remedy.simulators.ipmi.SimulatedBmc;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The ipmi agent keeps the fence-agent contract against the BMC simulator of remedy-simulators. It configures no
 * echoing device: RMCP+ never sends the password or the BMC key (only HMACs keyed with them, and the user name), and
 * a BMC answers with completion codes and binary fields, never text the agent would report.
 */
class IpmiAgentConformanceTest extends LoopbackConformanceKit {

    private static final String PASSWORD = "conformance-pw1";

    private static IpmiBmcSimulator simulator;
    private static IpmiTransport transport;
    private static SimulatedBmc bmc;
    private static SimulatedBmc absent;

    @BeforeAll
    static void start() {
        simulator = IpmiBmcSimulator.start();
        transport = IpmiTransport.create();
        bmc = simulator.add(BmcSpec.builder().user("admin", PASSWORD).build());
        absent = simulator.add(BmcSpec.builder().user("admin", PASSWORD).build()).responsive(false);
    }

    @AfterAll
    static void stop() {
        transport.close();
        simulator.close();
    }

    @Override
    protected FenceAgentProvider provider() {
        return new IpmiFenceAgentProvider(transport);
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return provider().configure().set("ip", bmc.host()).set("ipport", Integer.toString(port))
                .set("username", "admin").secret("password", Secret.of(password)).build();
    }

    @Override
    protected int port() {
        return bmc.port();
    }

    @Override
    protected String password() {
        return PASSWORD;
    }

    /** A simulated BMC that stopped answering. */
    @Override
    protected int unreachablePort() {
        return absent.port();
    }

    @Override
    protected PowerTarget target() {
        return bmc.powerTarget();
    }
}
