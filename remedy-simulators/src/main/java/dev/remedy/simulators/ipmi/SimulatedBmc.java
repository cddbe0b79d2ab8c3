package dev.remedy.simulators.ipmi;

import dev.remedy.simulators.ScheduledPowerTarget;
import dev.remedy.test.PowerTarget;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One simulated BMC of an {@link IpmiBmcSimulator}, listening on its own UDP port on 127.0.0.1. Tests read its
 * counters and inject faults from any thread; the simulator thread serves the protocol. Thread-safe.
 */
public final class SimulatedBmc {

    private final BmcSpec spec;
    private final DatagramChannel channel;
    private final InetSocketAddress address;
    private final ScheduledPowerTarget power;
    private final BmcProtocol protocol;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger dropNext = new AtomicInteger();
    private volatile boolean responsive = true;

    SimulatedBmc(BmcSpec spec, DatagramChannel channel, InetSocketAddress address, ScheduledPowerTarget power,
            BmcProtocol protocol) {
        this.spec = spec;
        this.channel = channel;
        this.address = address;
        this.power = power;
        this.protocol = protocol;
    }

    /** The address the BMC listens on: always {@code "127.0.0.1"}. */
    public String host() {
        return address.getAddress().getHostAddress();
    }

    /** The UDP port the BMC listens on. */
    public int port() {
        return address.getPort();
    }

    /** Host and port together. */
    public InetSocketAddress address() {
        return address;
    }

    /** How the BMC was set up. */
    public BmcSpec spec() {
        return spec;
    }

    /**
     * The machine behind the BMC: Chassis Control changes it (after the {@link #powerChangeDelay(Duration)}),
     * {@link PowerTarget#power(dev.remedy.spi.PowerState)} sets it directly, and its history records every state
     * it entered (each change; a power cycle records OFF then ON). Thread-safe.
     */
    public PowerTarget powerTarget() {
        return power;
    }

    /** Whether the BMC answers; a BMC that does not answer still counts {@link #requests()}. */
    public boolean responsive() {
        return responsive;
    }

    /** Makes the BMC answer, or silently drop every datagram as an absent BMC would. */
    public SimulatedBmc responsive(boolean answers) {
        this.responsive = answers;
        return this;
    }

    /** How long a commanded power change takes to show. */
    public Duration powerChangeDelay() {
        return power.delay();
    }

    /**
     * Makes commanded power changes take {@code delay} (real time): until then Get Chassis Status, and the
     * machine itself, keep the old state. A power cycle takes it twice (OFF after one delay, ON after two).
     *
     * @throws IllegalArgumentException if negative
     */
    public SimulatedBmc powerChangeDelay(Duration delay) {
        power.delay(delay);
        return this;
    }

    /** Sessions open now (RAKP completed, not closed, not expired). */
    public int activeSessions() {
        return protocol.activeSessions();
    }

    /** Sessions that completed RAKP since the BMC was added. */
    public long sessionsOpened() {
        return protocol.sessionsOpened();
    }

    /** Datagrams received since the BMC was added, including those dropped on purpose. */
    public long requests() {
        return requests.get();
    }

    /** Hard resets (Chassis Control 3) accepted; a reset does not change power or history. */
    public long resets() {
        return protocol.resets.get();
    }

    /**
     * The cipher suite of every well-formed Open Session Request received, in order (-1 for algorithms that form
     * no suite the simulator speaks), retransmissions included.
     */
    public List<Integer> proposedSuites() {
        return protocol.proposedSuites();
    }

    /** Get Channel Cipher Suites requests received since the BMC was added, answered or not (pages and resends count). */
    public long cipherSuitesQueries() {
        return protocol.cipherSuitesQueries();
    }

    /** The cipher suites the BMC enables now: {@link BmcSpec#cipherSuites()} until changed. */
    public List<Integer> cipherSuites() {
        return protocol.cipherSuites();
    }

    /**
     * Enables exactly these cipher suites from now on, as an administrator reconfiguring the BMC would: Get Channel
     * Cipher Suites lists them and Open Session accepts only them. Open sessions keep their suite.
     *
     * @throws IllegalArgumentException if none is given or one is a suite the simulator does not speak
     */
    public SimulatedBmc cipherSuites(int... ids) {
        protocol.cipherSuites(BmcSpec.Builder.suites(ids));
        return this;
    }

    /** Every Chassis Control code received in a session allowed to send it, in order (0 down, 1 up, 2 cycle...). */
    public List<Integer> chassisControls() {
        return protocol.chassisControls();
    }

    /**
     * Answers the next request with this network function and command with {@code completionCode} instead of
     * running it (once per call; calls queue up). For example {@code (0x00, 0x02, 0xC0)}: Chassis Control busy.
     *
     * @throws IllegalArgumentException if a value is out of range or the code is 0
     */
    public SimulatedBmc failNextCommand(int netFn, int command, int completionCode) {
        if (netFn < 0 || netFn > 0x3f || command < 0 || command > 0xff) {
            throw new IllegalArgumentException(String.format("failNextCommand: netFn 0x%x (0..0x3f) or command 0x%x "
                    + "(0..0xff) out of range", netFn, command));
        }
        if (completionCode < 1 || completionCode > 0xff) {
            throw new IllegalArgumentException(String.format("failNextCommand: completion code 0x%x must be 0x01 to "
                    + "0xff; 0 would be a success", completionCode));
        }
        protocol.failNext(netFn, command, completionCode);
        return this;
    }

    /**
     * Silently drops the next {@code count} datagrams (in addition to any already pending), to test
     * retransmission.
     *
     * @throws IllegalArgumentException if negative
     */
    public SimulatedBmc dropNext(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("dropNext: " + count + " must not be negative");
        }
        dropNext.addAndGet(count);
        return this;
    }

    DatagramChannel channel() {
        return channel;
    }

    /** Serves one datagram (simulator thread). */
    void receive(byte[] in, int length, SocketAddress from, byte[] out, ByteBuffer outBuffer, Crypto crypto)
            throws IOException {
        requests.incrementAndGet();
        if (!responsive || dropNext.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
            return;
        }
        int answer = protocol.handle(in, length, out, crypto);
        if (answer > 0) {
            outBuffer.clear().limit(answer);
            channel.send(outBuffer, from);
        }
    }

    /** Drops idle sessions (simulator thread). */
    void expire() {
        protocol.expire();
    }

    @Override
    public String toString() {
        return "SimulatedBmc[" + host() + ":" + port() + ", " + power + ", sessions=" + activeSessions()
                + (responsive ? "" : ", unresponsive") + "]";
    }
}
