package dev.remedy.fence.snmp;

import dev.remedy.simulators.snmp.SnmpAgentSimulator;
import dev.remedy.simulators.snmp.SnmpDevice;
import dev.remedy.simulators.snmp.SnmpDeviceSpec;
import dev.remedy.simulators.snmp.SnmpValue;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.LoopbackConformanceKit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance kit against one plug of an emulated SNMP device behind the in-JVM SNMP agent, for each agent and
 * profile a subclass names. The "password" of the loopback kit is the secret the agent authenticates with: the
 * community in v2c, the passphrases in v3 (the wrong one is refused by the agent: no answer). The echoing device is a
 * second agent whose status object answers with the community as text, which the agent reports as a value that is
 * no state.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SnmpConformanceKit extends LoopbackConformanceKit {

    static final String SECRET = "conformance-snmp";

    private SnmpAgentSimulator agent;
    private SnmpAgentSimulator echoing;

    /** The emulated device. */
    abstract SnmpDeviceSpec device();

    /** Who the agent lets in, given the secret. */
    abstract SnmpAgentSimulator.Access access(String secret);

    /** The agent's configuration for {@code host:port} with the secret, without the port and secret fields. */
    abstract AgentConfig config(String host, int port, String secret);

    /** The plug (outlet number or port name) the kit switches. */
    abstract String plug();

    /** The outlet or port number of {@link #plug()} on the device. */
    abstract int outlet();

    /** The OID of the plug's status, which the echoing device answers with the secret. */
    abstract String statusOid();

    @BeforeAll
    void start() {
        agent = SnmpAgentSimulator.start(SnmpDevice.create(device(), Clock.systemUTC()), access(SECRET));
        echoing = SnmpAgentSimulator.start(SnmpDevice.create(device(), Clock.systemUTC()), access(SECRET))
                .answer(statusOid(), SnmpValue.string(SECRET));
    }

    @AfterAll
    void stop() {
        agent.close();
        echoing.close();
    }

    @Override
    protected AgentConfig config(int port, String password) {
        return config(agent.host(), port, password);
    }

    @Override
    protected List<AgentConfig> echoingConfigs() {
        return List.of(config(echoing.host(), echoing.port(), SECRET));
    }

    @Override
    protected int port() {
        return agent.port();
    }

    @Override
    protected String password() {
        return SECRET;
    }

    /** A UDP port of loopback that was free a moment ago: nothing answers there. */
    @Override
    protected int unreachablePort() {
        return freeUdpPort();
    }

    /** A UDP port of loopback that was free a moment ago (the kit's, and the snmpd IT's, unreachable port). */
    static int freeUdpPort() {
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free UDP port", e);
        }
    }

    @Override
    protected PowerTarget target() {
        return agent.device().outlet(outlet());
    }
}
