package dev.remedy.fence.ipmi;

import dev.remedy.fence.ipmi.client.IpmiClient;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.testkit.PowerTarget;
import dev.remedy.testkit.conformance.FenceAgentConformanceKit;
import dev.remedy.testkit.ipmi.BmcSpec;
import dev.remedy.testkit.ipmi.IpmiBmcSimulator;
import dev.remedy.testkit.ipmi.SimulatedBmc;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The ipmi agent keeps the fence-agent contract against the testkit's BMC simulator. */
class IpmiAgentConformanceTest extends FenceAgentConformanceKit {

    private static final String PASSWORD = "conformance-pw1";

    private static IpmiBmcSimulator simulator;
    private static IpmiClient client;
    private static SimulatedBmc bmc;
    private static SimulatedBmc absent;

    @BeforeAll
    static void start() {
        simulator = IpmiBmcSimulator.start();
        client = IpmiClient.create();
        bmc = simulator.add(BmcSpec.builder().user("admin", PASSWORD).build());
        absent = simulator.add(BmcSpec.builder().user("admin", PASSWORD).build()).responsive(false);
    }

    @AfterAll
    static void stop() {
        client.close();
        simulator.close();
    }

    @Override
    protected FenceAgentProvider provider() {
        return new IpmiFenceAgentProvider(client);
    }

    private AgentConfig config(SimulatedBmc target, String password) {
        return provider().configure().set("ip", target.host()).set("ipport", Integer.toString(target.port()))
                .set("username", "admin").secret("password", Secret.of(password)).build();
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config(bmc, PASSWORD);
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config(absent, PASSWORD);
    }

    @Override
    protected java.util.Optional<AgentConfig> wrongCredentialsConfig() {
        return java.util.Optional.of(config(bmc, "not-the-password"));
    }

    @Override
    protected PowerTarget target() {
        return bmc.powerTarget();
    }

    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(1);
    }

    @Override
    protected Duration deadlineGrace() {
        return Duration.ofMillis(500);
    }
}
