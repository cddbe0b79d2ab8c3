package dev.remedy.simulators.snmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.spi.PowerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SnmpDeviceTest {

    private static final Oid RPDU_COMMAND = Oid.parse("1.3.6.1.4.1.318.1.1.12.3.3.1.1.4");
    private static final Oid RPDU_STATE = Oid.parse("1.3.6.1.4.1.318.1.1.12.3.5.1.1.4");
    private static final Oid RPDU2_STATE = Oid.parse("1.3.6.1.4.1.318.1.1.26.9.2.3.1.5");
    private static final Oid RPDU2_COMMAND = Oid.parse("1.3.6.1.4.1.318.1.1.26.9.2.4.1.5");
    private static final Oid SPDU_CTL = Oid.parse("1.3.6.1.4.1.318.1.1.4.4.2.1.3");
    private static final Oid EATON_STATE = Oid.parse("1.3.6.1.4.1.534.6.6.6.1.2.2.1.3");
    private static final Oid RARITAN_STATE = Oid.parse("1.3.6.1.4.1.13742.4.1.2.2.1.3");
    private static final Oid IF_ADMIN = Oid.parse("1.3.6.1.2.1.2.2.1.7");
    private static final Oid IF_OPER = Oid.parse("1.3.6.1.2.1.2.2.1.8");
    private static final Oid IF_NAME = Oid.parse("1.3.6.1.2.1.31.1.1.1.1");

    private final MutableClock clock = new MutableClock();

    private SnmpDevice device(SnmpDeviceKind kind, int outlets) {
        return SnmpDevice.create(SnmpDeviceSpec.of("dev-1", kind, outlets), clock);
    }

    private static List<VarBind> walk(SnmpDevice device) {
        List<VarBind> all = new ArrayList<>();
        Optional<VarBind> next = device.next(Oid.of(0));
        while (next.isPresent()) {
            all.add(next.get());
            next = device.next(next.get().oid());
        }
        return all;
    }

    private static int read(SnmpDevice device, Oid oid) {
        return device.get(oid).orElseThrow(() -> new AssertionError("no instance " + oid)).value().intValue();
    }

    @ParameterizedTest
    @EnumSource(SnmpDeviceKind.class)
    @DisplayName("a walk visits every instance once, in strictly increasing OID order, starting with the system group")
    void walkIsSortedAndComplete(SnmpDeviceKind kind) {
        SnmpDevice device = device(kind, 3);
        List<VarBind> walked = walk(device);
        assertThat(walked).as("the system group and at least two columns of three rows").hasSizeGreaterThanOrEqualTo(3 + 2 * 3);
        for (int i = 1; i < walked.size(); i++) {
            assertThat(walked.get(i).oid()).isGreaterThan(walked.get(i - 1).oid());
        }
        assertThat(walked.get(1)).isEqualTo(new VarBind(SnmpDevice.SYS_OBJECT_ID, SnmpValue.objectId(kind.sysObjectId())));
        assertThat(walked).allSatisfy(binding -> assertThat(device.get(binding.oid())).contains(binding));
        assertThat(walked.subList(3, walked.size())).allSatisfy(binding ->
                assertThat(kind.subtrees()).anySatisfy(subtree -> assertThat(binding.oid().startsWith(subtree)).isTrue()));
    }

    @Test
    @DisplayName("GETNEXT of a column's OID answers the column's first row; GET of the column itself answers nothing")
    void nextEntersAColumn() {
        SnmpDevice device = device(SnmpDeviceKind.APC_RACK_PDU, 4);
        assertThat(device.next(RPDU_STATE)).contains(new VarBind(RPDU_STATE.child(1), SnmpValue.integer(1)));
        assertThat(device.get(RPDU_STATE)).isEmpty();
        assertThat(device.next(RPDU_STATE.child(4)).orElseThrow().oid())
                .isEqualTo(Oid.parse("1.3.6.1.4.1.318.1.1.12.3.5.1.1.5.1"));
    }

    @Test
    @DisplayName("the last instance has no next: the end of the device's MIB view")
    void walkEnds() {
        SnmpDevice device = device(SnmpDeviceKind.RARITAN_PX, 2);
        List<VarBind> walked = walk(device);
        assertThat(device.next(walked.get(walked.size() - 1).oid())).isEmpty();
        assertThat(device.next(Oid.parse("1.4"))).isEmpty();
    }

    @Test
    @DisplayName("APC rack PDU: immediateOff through the rPDU table turns only that outlet off, and both tables read it back")
    void rackPduOffReadsBackInBothTables() {
        SnmpDevice device = device(SnmpDeviceKind.APC_RACK_PDU, 4);
        device.set(RPDU_COMMAND.child(2), SnmpValue.integer(2));
        assertThat(device.outlet(2).power()).isEqualTo(PowerState.OFF);
        assertThat(read(device, RPDU_STATE.child(2))).as("rPDUOutletStatusOutletState outletStatusOff(2)").isEqualTo(2);
        assertThat(read(device, RPDU2_STATE.child(2))).as("rPDU2OutletSwitchedStatusState off(1)").isEqualTo(1);
        assertThat(read(device, RPDU_COMMAND.child(2))).as("the command column reads immediateOff(2)").isEqualTo(2);
        assertThat(device.outlets()).filteredOn(o -> o.number() != 2)
                .allSatisfy(o -> assertThat(o.power()).isEqualTo(PowerState.ON));
        device.set(RPDU2_COMMAND.child(2), SnmpValue.integer(1));
        assertThat(read(device, RPDU2_STATE.child(2))).as("rPDU2OutletSwitchedStatusState on(2)").isEqualTo(2);
        assertThat(device.outlet(2).history()).containsExactly(PowerState.OFF, PowerState.ON);
    }

    @Test
    @DisplayName("the device's own reboot keeps the outlet off for the reboot delay on the device clock, then turns it on")
    void rebootWaitsForTheDelay() {
        SnmpDevice device = SnmpDevice.create(SnmpDeviceSpec.of("pdu", SnmpDeviceKind.APC_RACK_PDU, 2)
                .withRebootDelay(Duration.ofSeconds(5)), clock);
        device.set(RPDU_COMMAND.child(1), SnmpValue.integer(3));
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.OFF);
        assertThat(read(device, Oid.parse("1.3.6.1.4.1.318.1.1.12.3.5.1.1.5.1"))).as("commandPending(1)").isEqualTo(1);
        clock.advance(Duration.ofMillis(4999));
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.OFF);
        clock.advance(Duration.ofMillis(1));
        assertThat(read(device, RPDU_STATE.child(1))).isEqualTo(1);
        assertThat(device.outlet(1).history()).containsExactly(PowerState.OFF, PowerState.ON);
        assertThat(device.outlet(1).pending()).isEmpty();
    }

    @Test
    @DisplayName("delayed commands take effect one delay later, and cancelPendingCommand stops them")
    void delayedCommandsAndCancel() {
        SnmpDevice device = device(SnmpDeviceKind.APC_RACK_PDU, 1);
        device.set(RPDU2_COMMAND.child(1), SnmpValue.integer(6));
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.ON);
        clock.advance(SnmpDeviceSpec.DEFAULT_REBOOT_DELAY);
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.OFF);
        device.set(RPDU2_COMMAND.child(1), SnmpValue.integer(5));
        device.set(RPDU2_COMMAND.child(1), SnmpValue.integer(8));
        clock.advance(SnmpDeviceSpec.DEFAULT_REBOOT_DELAY.multipliedBy(3));
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("a value the MIB does not define is wrongValue, another type wrongType, a status column notWritable; nothing changes")
    void refusedSets() {
        SnmpDevice device = device(SnmpDeviceKind.APC_RACK_PDU, 2);
        SnmpSetException wrongValue = catchThrowableOfType(
                () -> device.set(RPDU_COMMAND.child(1), SnmpValue.integer(9)), SnmpSetException.class);
        assertThat(wrongValue.error()).isEqualTo(SnmpError.WRONG_VALUE);
        assertThat(wrongValue).hasMessageContaining(RPDU_COMMAND.child(1).toString()).hasMessageContaining("2 (immediateOff)");
        assertThat(catchThrowableOfType(() -> device.set(RPDU2_COMMAND.child(1), SnmpValue.integer(4)),
                SnmpSetException.class).error()).as("outletUnknown(4) is only ever read").isEqualTo(SnmpError.WRONG_VALUE);
        assertThat(catchThrowableOfType(() -> device.set(RPDU_COMMAND.child(1), SnmpValue.string("2")),
                SnmpSetException.class).error()).isEqualTo(SnmpError.WRONG_TYPE);
        assertThat(catchThrowableOfType(() -> device.set(RPDU_STATE.child(1), SnmpValue.integer(2)),
                SnmpSetException.class).error()).isEqualTo(SnmpError.NOT_WRITABLE);
        assertThat(catchThrowableOfType(() -> device.set(RPDU_COMMAND.child(3), SnmpValue.integer(2)),
                SnmpSetException.class).error()).as("no outlet 3").isEqualTo(SnmpError.NOT_WRITABLE);
        assertThat(device.outlets()).allSatisfy(o -> assertThat(o.history()).isEmpty());
    }

    @Test
    @DisplayName("a SET of several bindings is all or nothing")
    void setIsAtomic() {
        SnmpDevice device = device(SnmpDeviceKind.APC_RACK_PDU, 2);
        assertThatThrownBy(() -> device.set(List.of(new VarBind(RPDU_COMMAND.child(1), SnmpValue.integer(2)),
                new VarBind(RPDU_COMMAND.child(2), SnmpValue.integer(99))))).isInstanceOf(SnmpSetException.class);
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.ON);
        device.set(List.of(new VarBind(RPDU_COMMAND.child(1), SnmpValue.integer(2)),
                new VarBind(RPDU_COMMAND.child(2), SnmpValue.integer(2))));
        assertThat(device.outlets()).allSatisfy(o -> assertThat(o.power()).isEqualTo(PowerState.OFF));
    }

    @Test
    @DisplayName("APC MasterSwitch: sPDUOutletCtl reads outletOn(1)/outletOff(2) and switches; outletUnknown(4) is wrongValue")
    void masterSwitch() {
        SnmpDevice device = device(SnmpDeviceKind.APC_MASTER_SWITCH, 8);
        assertThat(read(device, SPDU_CTL.child(8))).isEqualTo(1);
        device.set(SPDU_CTL.child(8), SnmpValue.integer(2));
        assertThat(read(device, SPDU_CTL.child(8))).isEqualTo(2);
        assertThat(device.outlet(8).power()).isEqualTo(PowerState.OFF);
        assertThat(catchThrowableOfType(() -> device.set(SPDU_CTL.child(8), SnmpValue.integer(4)),
                SnmpSetException.class).error()).isEqualTo(SnmpError.WRONG_VALUE);
        assertThat(read(device, Oid.parse("1.3.6.1.4.1.318.1.1.4.5.2.1.5.8"))).as("sPDUOutletRebootDuration, s")
                .isEqualTo(5);
    }

    @ParameterizedTest
    @EnumSource(value = SnmpDeviceKind.class, names = {"EATON_EPDU", "RARITAN_PX"})
    @DisplayName("Eaton and Raritan: the state column switches with 0/1, and reads cycling(2), neither on nor off, during the reboot")
    void stateColumnReadsCyclingDuringReboot(SnmpDeviceKind kind) {
        boolean eaton = kind == SnmpDeviceKind.EATON_EPDU;
        Oid state = eaton ? EATON_STATE : RARITAN_STATE;
        Oid first = state.child(eaton ? 0 : 1);
        Oid second = state.child(eaton ? 1 : 2);
        SnmpDevice device = device(kind, 2);
        device.set(second, SnmpValue.integer(0));
        assertThat(read(device, second)).isEqualTo(0);
        assertThat(device.outlet(2).power()).isEqualTo(PowerState.OFF);
        device.set(second, SnmpValue.integer(1));
        assertThat(read(device, second)).isEqualTo(1);
        device.set(first, SnmpValue.integer(2));
        assertThat(read(device, first)).isEqualTo(2);
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.OFF);
        clock.advance(SnmpDeviceSpec.DEFAULT_REBOOT_DELAY);
        assertThat(read(device, first)).isEqualTo(1);
        assertThat(catchThrowableOfType(() -> device.set(first, SnmpValue.integer(3)),
                SnmpSetException.class).error()).isEqualTo(SnmpError.WRONG_VALUE);
    }

    @Test
    @DisplayName("Eaton Managed ePDU rows count from 0, as fence_eaton_snmp expects: outlet 1 is row 0")
    void eatonRowsFromZero() {
        SnmpDevice device = device(SnmpDeviceKind.EATON_EPDU, 3);
        assertThat(device.get(Oid.parse("1.3.6.1.4.1.534.6.6.6.1.2.2.1.1.0"))).map(VarBind::value)
                .contains(SnmpValue.integer(0));
        assertThat(device.get(EATON_STATE.child(3))).isEmpty();
        device.set(EATON_STATE.child(2), SnmpValue.integer(0));
        assertThat(device.outlet(3).power()).isEqualTo(PowerState.OFF);
    }

    @Test
    @DisplayName("IF-MIB switch: ports have ifIndex 10100+n and an ifName; ifAdminStatus down(2) takes ifOperStatus down; testing(3) is refused")
    void ifMibSwitch() {
        SnmpDevice device = device(SnmpDeviceKind.IF_MIB_SWITCH, 3);
        int index = device.ifIndex(2);
        assertThat(index).isEqualTo(10102);
        assertThat(device.get(IF_NAME.child(index)).orElseThrow().value()).isEqualTo(SnmpValue.string("Gi1/0/2"));
        assertThat(device.get(Oid.parse("1.3.6.1.2.1.2.2.1.2").child(index)).orElseThrow().value())
                .isEqualTo(SnmpValue.string("GigabitEthernet1/0/2"));
        assertThat(device.get(Oid.parse("1.3.6.1.2.1.2.1.0")).orElseThrow().value()).isEqualTo(SnmpValue.integer(3));
        assertThat(device.get(IF_ADMIN.child(2))).as("no ifIndex 2").isEmpty();
        device.set(IF_ADMIN.child(index), SnmpValue.integer(2));
        assertThat(read(device, IF_ADMIN.child(index))).isEqualTo(2);
        assertThat(read(device, IF_OPER.child(index))).isEqualTo(2);
        assertThat(device.outlet(2).power()).isEqualTo(PowerState.OFF);
        SnmpSetException testing = catchThrowableOfType(() -> device.set(IF_ADMIN.child(index), SnmpValue.integer(3)),
                SnmpSetException.class);
        assertThat(testing.error()).isEqualTo(SnmpError.INCONSISTENT_VALUE);
        assertThat(testing).hasMessageContaining("testing");
    }

    @Test
    @DisplayName("several devices with several outlets each keep their own state")
    void severalDevices() {
        List<SnmpDevice> devices = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            devices.add(SnmpDevice.create(SnmpDeviceSpec.of("pdu-" + i, SnmpDeviceKind.APC_RACK_PDU, 10), clock));
        }
        devices.get(1).set(RPDU_COMMAND.child(7), SnmpValue.integer(2));
        for (SnmpDevice device : devices) {
            for (SnmpOutlet outlet : device.outlets()) {
                boolean off = device == devices.get(1) && outlet.number() == 7;
                assertThat(outlet.power()).as("%s outlet %d", device.name(), outlet.number())
                        .isEqualTo(off ? PowerState.OFF : PowerState.ON);
            }
        }
        assertThat(devices.get(2).get(SnmpDevice.SYS_NAME).orElseThrow().value()).isEqualTo(SnmpValue.string("pdu-2"));
    }

    @Test
    @DisplayName("a test sets an outlet behind the device's back; a queued reboot is cancelled")
    void directPowerCancelsPending() {
        SnmpDevice device = device(SnmpDeviceKind.APC_RACK_PDU, 1);
        device.set(RPDU_COMMAND.child(1), SnmpValue.integer(3));
        device.outlet(1).power(PowerState.OFF);
        clock.advance(Duration.ofMinutes(1));
        assertThat(device.outlet(1).power()).isEqualTo(PowerState.OFF);
        assertThat(device.outlet(1).history()).containsExactly(PowerState.OFF);
    }
}
