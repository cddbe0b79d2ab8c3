package dev.remedy.fence.ipmi;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The ipmi agent keeps the fence-agent contract against OpenIPMI's ipmi_sim, a BMC we did not write. */
class IpmiSimConformanceIT extends LoopbackConformanceKit {

    @TempDir
    static Path work;

    private static IpmiSimProcess sim;
    private static IpmiTransport transport;

    @BeforeAll
    static void start() throws IOException {
        PeerPrograms.require("ipmi_sim", "openipmi");
        sim = IpmiSimProcess.start(work);
        transport = IpmiTransport.create();
    }

    @AfterAll
    static void stop() {
        if (sim != null) {
            transport.close();
            sim.close();
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return new IpmiFenceAgentProvider(transport);
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return provider().configure().set("ip", sim.host()).set("ipport", Integer.toString(port))
                .set("username", sim.user()).secret("password", Secret.of(password)).build();
    }

    @Override
    protected int port() {
        return sim.port();
    }

    @Override
    protected String password() {
        return sim.password();
    }

    /** The UDP port after ipmi_sim's, where nothing listens. */
    @Override
    protected int unreachablePort() {
        return sim.port() + 1;
    }

    @Override
    protected PowerTarget target() {
        return sim.powerTarget();
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(2);
    }
}
