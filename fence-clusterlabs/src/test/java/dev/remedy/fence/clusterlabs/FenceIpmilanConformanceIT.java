package dev.remedy.fence.clusterlabs;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.simulators.ipmi.IpmiSimProcess;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClusterLabs' own {@code fence_ipmilan} (fence-agents, through ipmitool), run by the fence-agents agent, keeps the
 * fence-agent contract against OpenIPMI's {@code ipmi_sim}: two programs nobody on the team wrote.
 */
class FenceIpmilanConformanceIT extends LoopbackConformanceKit {

    @TempDir
    static Path work;

    private static IpmiSimProcess sim;
    private static ClusterLabsFenceAgentProvider provider;

    @BeforeAll
    static void start() {
        PeerPrograms.require("fence_ipmilan", "fence-agents");
        PeerPrograms.require("ipmitool", "ipmitool");
        PeerPrograms.require("ipmi_sim", "openipmi");
        sim = IpmiSimProcess.start(work);
        provider = new ClusterLabsFenceAgentProvider(Path.of(ClusterLabsFenceAgentProvider.DEFAULT_DIRECTORY))
                .specialise(Map.of("agent", "fence_ipmilan"));
    }

    @AfterAll
    static void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    @Override
    protected FenceAgentProvider provider() {
        return provider;
    }

    /** IPMI v2.0 with cipher suite 3: ipmi_sim has no suite 17 and does not answer Get Channel Cipher Suites. */
    @Override
    protected AgentConfig config(int port, String password) {
        return provider.configure().set("agent", "fence_ipmilan").set("ip", sim.host())
                .set("ipport", Integer.toString(port)).set("username", sim.user()).set("lanplus", "true")
                .set("cipher", "3").secret("password", Secret.of(password)).build();
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

    /** fence_ipmilan waits 2 s after each power command (power_wait) before it reads the state itself. */
    @Override
    protected Duration actionTimeout() {
        return Duration.ofSeconds(30);
    }

    @Override
    protected Duration unreachableTimeout() {
        return Duration.ofSeconds(3);
    }
}
