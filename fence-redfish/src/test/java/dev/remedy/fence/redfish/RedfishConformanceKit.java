package dev.remedy.fence.redfish;

import dev.remedy.simulators.redfish.RedfishSimulator;
import dev.remedy.simulators.redfish.RedfishSpec;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance kit against one target of the Redfish simulator of remedy-simulators, for each agent a subclass
 * names; the echoing device is a second simulator that echoes the login body and the Basic header in 400 replies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RedfishConformanceKit extends LoopbackConformanceKit {

    private static final String PASSWORD = "conformance-redfish";

    private RedfishSimulator simulator;
    private RedfishSimulator echoing;

    /** The simulated service (its user is set here). */
    abstract RedfishSpec.Builder service();

    /** The parameters that choose the target ({@code plug}, {@code pdu}), added to the connection ones. */
    abstract AgentConfig.Builder target(AgentConfig.Builder config);

    /** The power the kit switches. */
    abstract PowerTarget target(RedfishSimulator service);

    @BeforeAll
    void start() {
        simulator = RedfishSimulator.start(service().user("admin", PASSWORD).build());
        echoing = RedfishSimulator.start(service().user("admin", PASSWORD).build());
        echoing.faults().echoCredentials(true);
    }

    @AfterAll
    void stop() {
        simulator.close();
        echoing.close();
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return builder(port, password).build();
    }

    /** A session login (its body echoed) and HTTP Basic (its header echoed). */
    @Override
    protected List<AgentConfig> echoingConfigs() {
        return List.of(builder(echoing.port(), PASSWORD).build(),
                builder(echoing.port(), PASSWORD).set("auth", "basic").build());
    }

    private AgentConfig.Builder builder(int port, String password) {
        return target(provider().configure().set("ip", "127.0.0.1").set("ipport", Integer.toString(port))
                .set("ssl", "false").set("username", "admin").secret("password", Secret.of(password))
                .set("poll_interval", "50ms"));
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
