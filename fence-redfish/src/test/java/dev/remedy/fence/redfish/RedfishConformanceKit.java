package dev.remedy.fence.redfish;

import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The conformance kit against one target of the Redfish simulator of remedy-simulators, for each agent a subclass names. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RedfishConformanceKit extends LoopbackConformanceKit {

    private static final String PASSWORD = "conformance-redfish";

    private RedfishSimulator simulator;

    /** The simulated service (its user is set here). */
    abstract RedfishSpec.Builder service();

    /** The parameters that choose the target ({@code plug}, {@code pdu}), added to the connection ones. */
    abstract AgentConfig.Builder target(AgentConfig.Builder config);

    /** The power the kit switches. */
    abstract PowerTarget target(RedfishSimulator service);

    @BeforeAll
    void start() {
        simulator = RedfishSimulator.start(service().user("admin", PASSWORD).build());
    }

    @AfterAll
    void stop() {
        simulator.close();
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return target(provider().configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(port))
                .set("ssl", "false").set("username", "admin").secret("password", Secret.of(password))
                .set("poll_interval", "50ms")).build();
    }

    @Override
    protected int port() {
        return simulator.port();
    }

    @Override
    protected String password() {
        return PASSWORD;
    }

    @Override
    protected PowerTarget target() {
        return target(simulator);
    }
}
