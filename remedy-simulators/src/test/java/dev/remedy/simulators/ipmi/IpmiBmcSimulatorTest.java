package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.ipmi.TestConsole.Session;
import dev.remedy.spi.PowerState;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The BMC simulator over loopback UDP")
class IpmiBmcSimulatorTest {

    private IpmiBmcSimulator simulator;
    private DatagramSocket socket;

    @BeforeEach
    void start() throws Exception {
        simulator = IpmiBmcSimulator.start();
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void stop() {
        socket.close();
        simulator.close();
    }

    private TestConsole console(SimulatedBmc bmc, int timeoutMillis) {
        return new TestConsole(TestConsole.udp(socket, bmc.address(), timeoutMillis));
    }

    @Test
    @DisplayName("a BMC on its own port logs in, powers off over the wire and counts sessions and datagrams")
    void endToEnd() {
        SimulatedBmc bmc = simulator.add(BmcSpec.ofDefaults());
        assertThat(bmc.host()).isEqualTo("127.0.0.1");
        assertThat(simulator.bmcs()).containsExactly(bmc);

        Session session = console(bmc, 2000).login("admin", "remedy-secret", 17);
        session.setPrivilege(Privilege.ADMINISTRATOR);
        session.chassisControl(0);
        assertThat(bmc.activeSessions()).isEqualTo(1);
        session.close();

        assertThat(bmc.powerTarget().power()).isEqualTo(PowerState.OFF);
        assertThat(bmc.powerTarget().history()).containsExactly(PowerState.OFF);
        assertThat(bmc.chassisControls()).containsExactly(0);
        assertThat(bmc.activeSessions()).isZero();
        assertThat(bmc.sessionsOpened()).isEqualTo(1);
        assertThat(bmc.requests()).isEqualTo(6);
    }

    @Test
    @DisplayName("an unresponsive BMC counts datagrams but never answers; dropNext drops exactly that many")
    void silenceAndDrops() {
        SimulatedBmc bmc = simulator.add(BmcSpec.ofDefaults());
        TestConsole console = console(bmc, 200);

        bmc.responsive(false);
        assertThat(console.exchange(SessionlessProbe.authCapabilities())).isNull();
        bmc.responsive(true).dropNext(2);
        assertThat(console.exchange(SessionlessProbe.authCapabilities())).isNull();
        assertThat(console.exchange(SessionlessProbe.authCapabilities())).isNull();
        assertThat(console.exchange(SessionlessProbe.authCapabilities())).isNotNull();

        assertThat(bmc.requests()).isEqualTo(4);
    }

    @Test
    @DisplayName("failNextCommand and powerChangeDelay work over the wire")
    void faultsOverTheWire() {
        SimulatedBmc bmc = simulator.add(BmcSpec.ofDefaults()).powerChangeDelay(Duration.ofMillis(300));
        Session session = console(bmc, 2000).login("admin", "remedy-secret", 3);
        session.setPrivilege(Privilege.ADMINISTRATOR);
        bmc.failNextCommand(0x00, 0x02, 0xc0);

        assertThat(session.chassisControl(0).completionCode()).isEqualTo(0xc0);
        assertThat(session.chassisControl(0).completionCode()).isZero();
        assertThat(session.chassisStatus().data()[0] & 1).as("still on within the delay").isEqualTo(1);
        assertThat(bmc.powerChangeDelay()).isEqualTo(Duration.ofMillis(300));
        session.close();
    }

    @Test
    @DisplayName("addMany binds distinct ports; close unbinds them all and stops the thread")
    void addManyAndClose() throws Exception {
        List<SimulatedBmc> bmcs = simulator.addMany(50, BmcSpec.ofDefaults());
        assertThat(bmcs).extracting(SimulatedBmc::port).doesNotHaveDuplicates().hasSize(50);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .contains(IpmiBmcSimulator.THREAD_NAME);

        simulator.close();

        assertThat(simulator.running()).isFalse();
        for (SimulatedBmc bmc : bmcs) {
            try (DatagramSocket again = new DatagramSocket(bmc.address())) {
                assertThat(again.getLocalPort()).isEqualTo(bmc.port());
            }
        }
        assertThatThrownBy(() -> simulator.add(BmcSpec.ofDefaults())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    @DisplayName("fault knobs refuse values out of range with the reason")
    void knobValidation() {
        SimulatedBmc bmc = simulator.add(BmcSpec.ofDefaults());

        assertThatThrownBy(() -> bmc.dropNext(-1)).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> bmc.failNextCommand(0x40, 1, 0xc0)).hasMessageContaining("out of range");
        assertThatThrownBy(() -> bmc.failNextCommand(0, 1, 0)).hasMessageContaining("would be a success");
        assertThatThrownBy(() -> simulator.addMany(0, BmcSpec.ofDefaults())).hasMessageContaining("at least 1");
    }
}
