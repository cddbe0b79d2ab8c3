package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnmpPassPersistTest {

    private final MutableClock clock = new MutableClock();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private String session(SnmpDevice device, String... lines) throws IOException {
        SnmpPassPersist front = new SnmpPassPersist(action -> action.apply(device), device.kind().subtrees(),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        StringWriter out = new StringWriter();
        front.serve(new BufferedReader(new StringReader(String.join("\n", lines) + "\n")), out);
        return out.toString();
    }

    private SnmpDevice rackPdu() {
        return SnmpDevice.create(SnmpDeviceSpec.of("pdu", SnmpDeviceKind.APC_RACK_PDU, 2), clock);
    }

    @Test
    @DisplayName("PING is answered PONG, and get answers OID, type and value on three lines")
    void pingAndGet() throws IOException {
        assertThat(session(rackPdu(), "PING", "get", ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.2",
                "get", ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.2.1"))
                .isEqualTo("PONG\n.1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.2\ninteger\n1\n"
                        + ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.2.1\nstring\nOutlet 1\n");
    }

    @Test
    @DisplayName("get of no instance, or of snmpd's own system group, is NONE")
    void getNone() throws IOException {
        assertThat(session(rackPdu(), "get", ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.3", "get", ".1.3.6.1.2.1.1.2.0",
                "get", "not-an-oid")).isEqualTo("NONE\nNONE\nNONE\n");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("'not-an-oid'");
    }

    @Test
    @DisplayName("getnext walks in OID order and stays in the subtree asked about: the IF-MIB switch's two subtrees end apart")
    void getnextStaysInItsSubtree() throws IOException {
        SnmpDevice device = SnmpDevice.create(SnmpDeviceSpec.of("sw", SnmpDeviceKind.IF_MIB_SWITCH, 2), clock);
        assertThat(session(device, "getnext", ".1.3.6.1.2.1.2", "getnext", ".1.3.6.1.2.1.2.2.1.8.10102",
                "getnext", ".1.3.6.1.2.1.31.1.1", "getnext", ".1.3.6.1.2.1.31.1.1.1.1.10102",
                "getnext", ".1.3.6.1.2.1.1"))
                .isEqualTo(".1.3.6.1.2.1.2.1.0\ninteger\n2\n"
                        + "NONE\n"
                        + ".1.3.6.1.2.1.31.1.1.1.1.10101\nstring\nGi1/0/1\n"
                        + "NONE\n"
                        + ".1.3.6.1.2.1.2.1.0\ninteger\n2\n");
    }

    @Test
    @DisplayName("set with a value the MIB allows is DONE and switches the outlet")
    void setDone() throws IOException {
        SnmpDevice device = rackPdu();
        assertThat(session(device, "set", ".1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.2", "integer 2",
                "get", ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.2"))
                .isEqualTo("DONE\n.1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.2\ninteger\n2\n");
        assertThat(device.outlet(2).power()).isEqualTo(PowerState.OFF);
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("refused sets answer not-writable, wrong-type, wrong-value and inconsistent-value, and change nothing")
    void setErrors() throws IOException {
        SnmpDevice device = rackPdu();
        assertThat(session(device,
                "set", ".1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.1", "integer 2",
                "set", ".1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.1", "string \"off\"",
                "set", ".1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.1", "gauge 2",
                "set", ".1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.1", "integer 12",
                "set", ".1.3.6.1.2.1.1.5.0", "string \"x\""))
                .isEqualTo("not-writable\nwrong-type\nwrong-type\nwrong-value\nnot-writable\n");
        assertThat(device.outlets()).allSatisfy(outlet -> assertThat(outlet.history()).isEmpty());
        SnmpDevice sw = SnmpDevice.create(SnmpDeviceSpec.of("sw", SnmpDeviceKind.IF_MIB_SWITCH, 1), clock);
        assertThat(session(sw, "set", ".1.3.6.1.2.1.2.2.1.7.10101", "integer 3")).isEqualTo("inconsistent-value\n");
    }

    @Test
    @DisplayName("a state file that fails is gen-error for a set (never silently DONE) and NONE for a read")
    void failingStateIsAnError() throws IOException {
        SnmpPassPersist front = new SnmpPassPersist(action -> {
            throw new UncheckedIOException(new IOException("disk on fire"));
        }, SnmpDeviceKind.APC_RACK_PDU.subtrees(), new PrintStream(log, true, StandardCharsets.UTF_8));
        StringWriter out = new StringWriter();
        front.serve(new BufferedReader(new StringReader("set\n.1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.1\ninteger 2\n"
                + "get\n.1.3.6.1.4.1.318.1.1.12.3.5.1.1.4.1\n")), out);
        assertThat(out).hasToString("gen-error\nNONE\n");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("disk on fire");
    }

    @Test
    @DisplayName("blank lines (snmpd ends a set with one) are skipped, not answered and not the end")
    void blankLinesAreSkipped() throws IOException {
        assertThat(session(rackPdu(), "set", ".1.3.6.1.4.1.318.1.1.12.3.3.1.1.4.1", "integer 2", "", "PING"))
                .isEqualTo("DONE\nPONG\n");
    }

    @Test
    @DisplayName("the front over a state file: what one session sets, the file's outlet reads")
    void overAStateFile(@TempDir Path dir) throws IOException {
        SnmpStateFile state = SnmpStateFile.create(dir.resolve("pdu.state"),
                SnmpDeviceSpec.of("pdu", SnmpDeviceKind.APC_MASTER_SWITCH, 2));
        SnmpPassPersist front = new SnmpPassPersist(action -> state.update(clock, action),
                state.spec().kind().subtrees(), new PrintStream(log, true, StandardCharsets.UTF_8));
        StringWriter out = new StringWriter();
        front.serve(new BufferedReader(new StringReader("set\n.1.3.6.1.4.1.318.1.1.4.4.2.1.3.2\ninteger 2\n")), out);
        assertThat(out).hasToString("DONE\n");
        assertThat(List.of(state.outlet(1).power(), state.outlet(2).power()))
                .containsExactly(PowerState.ON, PowerState.OFF);
    }
}
