package dev.remedy.fence.ssh;

import dev.remedy.simulators.ssh.SshDeviceSimulator;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance kit against one plug of a simulated SSH device, for each profile a subclass names; the echoing
 * device is a second one that answers every command with an error quoting the session's password.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SshConformanceKit extends LoopbackConformanceKit {

    private static final String PASSWORD = "conformance-ssh";
    /**
     * The simulated devices' own packet traces (Apache MINA sshd at FINEST): they show what a device sends, the
     * password the echoing one quotes included. They are the device's lines, not the agent's (which uses JSch), so
     * they stay out of the log records the kit reads.
     */
    private static final Logger DEVICE_TRACES = Logger.getLogger("org.apache.sshd");

    private SshDeviceSimulator device;
    private SshDeviceSimulator echoing;

    /** The simulated device (its user is set here). */
    abstract SshDeviceSpec.Builder device();

    /** The profile that drives it. */
    abstract String profile();

    /** The plug the kit switches. */
    abstract String plug();

    @BeforeAll
    void start() {
        DEVICE_TRACES.setLevel(Level.INFO);
        device = SshDeviceSimulator.start(device().user("fence", PASSWORD).build());
        echoing = SshDeviceSimulator.start(device().user("fence", PASSWORD).build());
        echoing.faults().echoCredentials(true);
    }

    @AfterAll
    void stop() {
        device.close();
        echoing.close();
        DEVICE_TRACES.setLevel(null);
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return config(device, port, password);
    }

    @Override
    protected List<AgentConfig> echoingConfigs() {
        return List.of(config(echoing, echoing.port(), PASSWORD));
    }

    private AgentConfig config(SshDeviceSimulator server, int port, String password) {
        return provider().configure().set("ip", server.host()).set("ipport", Integer.toString(port))
                .set("username", "fence").secret("password", Secret.of(password)).set("profile", profile())
                .set("plug", plug()).set("host_key_fingerprint", server.hostKeyFingerprint())
                .set("poll_interval", "50ms").build();
    }

    @Override
    protected int port() {
        return device.port();
    }

    @Override
    protected String password() {
        return PASSWORD;
    }

    @Override
    protected PowerTarget target() {
        return device.device().port(plug());
    }
}
