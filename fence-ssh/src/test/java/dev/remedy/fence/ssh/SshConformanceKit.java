package dev.remedy.fence.ssh;

import dev.remedy.simulators.ssh.SshDeviceSimulator;
import dev.remedy.simulators.ssh.SshDeviceSpec;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The conformance kit against one plug of a simulated SSH device, for each profile a subclass names. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SshConformanceKit extends LoopbackConformanceKit {

    private static final String PASSWORD = "conformance-ssh";

    private SshDeviceSimulator device;

    /** The simulated device (its user is set here). */
    abstract SshDeviceSpec.Builder device();

    /** The profile that drives it. */
    abstract String profile();

    /** The plug the kit switches. */
    abstract String plug();

    @BeforeAll
    void start() {
        device = SshDeviceSimulator.start(device().user("fence", PASSWORD).build());
    }

    @AfterAll
    void stop() {
        device.close();
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return provider().configure().set("ip", device.host()).set("ipport", Integer.toString(port))
                .set("username", "fence").secret("password", Secret.of(password)).set("profile", profile())
                .set("plug", plug()).set("host_key_fingerprint", device.hostKeyFingerprint())
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
