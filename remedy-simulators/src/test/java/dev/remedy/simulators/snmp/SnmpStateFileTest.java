package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.PowerState;
import dev.remedy.test.PowerTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnmpStateFileTest {

    private static final Oid RPDU_COMMAND = Oid.parse("1.3.6.1.4.1.318.1.1.12.3.3.1.1.4");

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock();

    @Test
    @DisplayName("a SET through the file is what a test reads back through the file, outlet by outlet")
    void setThenReadBack() {
        SnmpStateFile state = SnmpStateFile.create(dir.resolve("pdu.state"), SnmpDeviceSpec.of("pdu", SnmpDeviceKind.APC_RACK_PDU, 3));
        state.update(clock, device -> device.set(RPDU_COMMAND.child(2), SnmpValue.integer(2)));
        SnmpStateFile reopened = SnmpStateFile.open(state.path());
        assertThat(reopened.spec()).isEqualTo(state.spec());
        assertThat(reopened.outlet(1).power()).isEqualTo(PowerState.ON);
        assertThat(reopened.outlet(2).power()).isEqualTo(PowerState.OFF);
        assertThat(reopened.outlet(2).history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("a reboot's ON still to come is kept in the file and takes effect at the first access after its instant")
    void pendingChangeSurvivesTheFile() {
        SnmpStateFile state = SnmpStateFile.create(dir.resolve("pdu.state"), new SnmpDeviceSpec("pdu",
                SnmpDeviceKind.APC_RACK_PDU, 1, Duration.ofSeconds(5)));
        state.update(clock, device -> device.set(RPDU_COMMAND.child(1), SnmpValue.integer(3)));
        clock.advance(Duration.ofSeconds(4));
        assertThat(power(state)).isEqualTo(PowerState.OFF);
        clock.advance(Duration.ofSeconds(1));
        assertThat(power(state)).isEqualTo(PowerState.ON);
        List<SnmpOutlet.Change> pending = state.update(clock, device -> device.outlet(1).pending());
        assertThat(pending).isEmpty();
        assertThat(state.outlet(1).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("the PowerTarget sets, clears history and reads as the conformance kit does")
    void powerTarget() {
        SnmpStateFile state = SnmpStateFile.create(dir.resolve("sw.state"), SnmpDeviceSpec.of("sw", SnmpDeviceKind.IF_MIB_SWITCH, 2));
        PowerTarget port = state.outlet(2);
        port.power(PowerState.OFF);
        port.power(PowerState.ON);
        assertThat(port.history()).containsExactly(PowerState.OFF, PowerState.ON);
        port.clearHistory();
        assertThat(port.history()).isEmpty();
        int index = state.update(clock, device -> device.ifIndex(2));
        Optional<VarBind> admin = state.update(clock, device -> device.get(Oid.parse("1.3.6.1.2.1.2.2.1.7").child(index)));
        assertThat(admin).map(VarBind::value).contains(SnmpValue.integer(1));
        assertThatThrownBy(() -> state.outlet(3)).hasMessageContaining("outlets 1 to 2");
    }

    @Test
    @DisplayName("a refused SET changes nothing in the file")
    void refusedSetChangesNothing() {
        SnmpStateFile state = SnmpStateFile.create(dir.resolve("pdu.state"), SnmpDeviceSpec.of("pdu", SnmpDeviceKind.APC_RACK_PDU, 1));
        assertThatThrownBy(() -> state.update(clock, device -> device.set(RPDU_COMMAND.child(1), SnmpValue.integer(42))))
                .isInstanceOf(SnmpSetException.class);
        assertThat(state.outlet(1).history()).isEmpty();
    }

    @Test
    @DisplayName("a damaged file is named with the line that is wrong")
    void damagedFile() throws IOException {
        SnmpStateFile state = SnmpStateFile.create(dir.resolve("pdu.state"), SnmpDeviceSpec.of("pdu", SnmpDeviceKind.EATON_EPDU, 2));
        List<String> lines = Files.readAllLines(state.path());
        Files.write(state.path(), List.of(lines.get(0), lines.get(1), "2 MAYBE history=- pending=-"), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> state.outlet(1).power()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outlet line 2").hasMessageContaining("MAYBE");
        Files.writeString(state.path(), "hello\n");
        assertThatThrownBy(() -> SnmpStateFile.open(state.path())).hasMessageContaining("'hello'")
                .hasMessageContaining("device <name> <kind> <outlets> <reboot delay>");
    }

    private PowerState power(SnmpStateFile state) {
        return state.update(clock, device -> device.outlet(1).power());
    }
}
