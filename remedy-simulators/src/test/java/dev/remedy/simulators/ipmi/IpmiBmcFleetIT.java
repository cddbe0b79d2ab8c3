package dev.remedy.simulators.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A fleet of 1,000 simulated BMCs in one JVM")
class IpmiBmcFleetIT {

    private static final int FLEET = 1_000;

    @Test
    @DisplayName("1,000 BMCs are added in well under 10 s and every port answers Get Channel Auth Capabilities")
    void thousandBmcs() throws Exception {
        try (IpmiBmcSimulator simulator = IpmiBmcSimulator.start()) {
            long started = System.nanoTime();
            List<SimulatedBmc> fleet = simulator.addMany(FLEET, BmcSpec.ofDefaults());
            Duration adding = Duration.ofNanos(System.nanoTime() - started);

            assertThat(adding).isLessThan(Duration.ofSeconds(10));
            assertThat(fleet).extracting(SimulatedBmc::port).doesNotHaveDuplicates();
            assertThat(answering(fleet)).as("ports that answered").hasSize(FLEET);
            assertThat(fleet).allSatisfy(bmc -> assertThat(bmc.requests()).isBetween(1L, 3L));
        }
    }

    /** Asks every BMC from one channel, resending to the silent ones up to three rounds of 2 s. */
    private static Set<Integer> answering(List<SimulatedBmc> fleet) throws Exception {
        Set<Integer> answered = new HashSet<>();
        byte[] request = SessionlessProbe.authCapabilities();
        try (DatagramChannel channel = DatagramChannel.open(); Selector selector = Selector.open()) {
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            ByteBuffer in = ByteBuffer.allocate(512);
            Map<Integer, SimulatedBmc> byPort = new HashMap<>();
            fleet.forEach(bmc -> byPort.put(bmc.port(), bmc));
            for (int round = 0; round < 3 && answered.size() < fleet.size(); round++) {
                for (SimulatedBmc bmc : fleet) {
                    if (!answered.contains(bmc.port())) {
                        channel.send(ByteBuffer.wrap(request), bmc.address());
                    }
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (answered.size() < fleet.size() && System.nanoTime() - deadline < 0) {
                    selector.select(100);
                    selector.selectedKeys().clear();
                    InetSocketAddress from;
                    while ((from = (InetSocketAddress) channel.receive(in.clear())) != null) {
                        byte[] answer = new byte[in.position()];
                        in.flip().get(answer);
                        if (byPort.containsKey(from.getPort()) && SessionlessProbe.completedOk(answer, 0x38)) {
                            answered.add(from.getPort());
                        }
                    }
                }
            }
        }
        return answered;
    }
}
