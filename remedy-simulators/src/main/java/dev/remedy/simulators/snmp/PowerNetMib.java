package dev.remedy.simulators.snmp;

import dev.remedy.simulators.snmp.MibTree.Choice;
import dev.remedy.spi.PowerState;
import java.util.Map;

/** APC's PowerNet-MIB outlet tables: rPDU2 and rPDU for a rack PDU, sPDU for a MasterSwitch. */
final class PowerNetMib {

    private static final Oid HARDWARE = Oid.parse("1.3.6.1.4.1.318.1.1");
    private static final Oid RPDU_CONTROL = HARDWARE.child(12, 3, 3, 1, 1);
    private static final Oid RPDU_STATUS = HARDWARE.child(12, 3, 5, 1, 1);
    private static final Oid RPDU2_STATUS = HARDWARE.child(26, 9, 2, 3, 1);
    private static final Oid RPDU2_CONTROL = HARDWARE.child(26, 9, 2, 4, 1);
    private static final Oid SPDU_CONTROL = HARDWARE.child(4, 4, 2, 1);

    private static final Map<Integer, Choice> RPDU_COMMANDS = Map.of(
            1, new Choice("immediateOn", OutletCommand.ON),
            2, new Choice("immediateOff", OutletCommand.OFF),
            3, new Choice("immediateReboot", OutletCommand.REBOOT),
            4, new Choice("delayedOn", OutletCommand.DELAYED_ON),
            5, new Choice("delayedOff", OutletCommand.DELAYED_OFF),
            6, new Choice("delayedReboot", OutletCommand.DELAYED_REBOOT),
            7, new Choice("cancelPendingCommand", OutletCommand.CANCEL));

    private static final Map<Integer, Choice> RPDU2_COMMANDS = Map.of(
            1, new Choice("immediateOn", OutletCommand.ON),
            2, new Choice("immediateOff", OutletCommand.OFF),
            3, new Choice("immediateReboot", OutletCommand.REBOOT),
            5, new Choice("delayedOn", OutletCommand.DELAYED_ON),
            6, new Choice("delayedOff", OutletCommand.DELAYED_OFF),
            7, new Choice("delayedReboot", OutletCommand.DELAYED_REBOOT),
            8, new Choice("cancelPendingCommand", OutletCommand.CANCEL));

    private static final Map<Integer, Choice> SPDU_COMMANDS = Map.of(
            1, new Choice("outletOn", OutletCommand.ON),
            2, new Choice("outletOff", OutletCommand.OFF),
            3, new Choice("outletReboot", OutletCommand.REBOOT),
            5, new Choice("outletOnWithDelay", OutletCommand.DELAYED_ON),
            6, new Choice("outletOffWithDelay", OutletCommand.DELAYED_OFF),
            7, new Choice("outletRebootWithDelay", OutletCommand.DELAYED_REBOOT));

    private PowerNetMib() {
    }

    /** rPDU2 status and control tables and the rPDU control and status tables. */
    static void rackPdu(MibTree tree, SnmpDevice device) {
        tree.constant(HARDWARE.child(12, 1, 8, 0), SnmpValue.integer(device.outlets().size()));
        for (SnmpOutlet outlet : device.outlets()) {
            int n = outlet.number();
            tree.constant(RPDU_CONTROL.child(1, n), SnmpValue.integer(n));
            tree.constant(RPDU_CONTROL.child(2, n), SnmpValue.string(outlet.name()));
            tree.control(RPDU_CONTROL.child(4, n), () -> onOne(outlet), outlet, RPDU_COMMANDS);
            tree.constant(RPDU_STATUS.child(1, n), SnmpValue.integer(n));
            tree.constant(RPDU_STATUS.child(2, n), SnmpValue.string(outlet.name()));
            tree.readOnly(RPDU_STATUS.child(4, n), () -> onOne(outlet));
            tree.readOnly(RPDU_STATUS.child(5, n), () -> pending(outlet));
            tree.constant(RPDU2_STATUS.child(1, n), SnmpValue.integer(n));
            tree.constant(RPDU2_STATUS.child(3, n), SnmpValue.string(outlet.name()));
            tree.constant(RPDU2_STATUS.child(4, n), SnmpValue.integer(n));
            tree.readOnly(RPDU2_STATUS.child(5, n), () -> onTwo(outlet));
            tree.constant(RPDU2_CONTROL.child(1, n), SnmpValue.integer(n));
            tree.constant(RPDU2_CONTROL.child(3, n), SnmpValue.string(outlet.name()));
            tree.constant(RPDU2_CONTROL.child(4, n), SnmpValue.integer(n));
            tree.control(RPDU2_CONTROL.child(5, n), () -> onOne(outlet), outlet, RPDU2_COMMANDS);
        }
    }

    /** sPDUOutletControlTableSize, sPDUOutletControlTable and sPDUOutletRebootDuration (seconds). */
    static void masterSwitch(MibTree tree, SnmpDevice device) {
        tree.constant(HARDWARE.child(4, 4, 1, 0), SnmpValue.integer(device.outlets().size()));
        int rebootSeconds = (int) Math.min(Integer.MAX_VALUE, device.spec().rebootDelay().toSeconds());
        for (SnmpOutlet outlet : device.outlets()) {
            int n = outlet.number();
            tree.constant(SPDU_CONTROL.child(1, n), SnmpValue.integer(n));
            tree.readOnly(SPDU_CONTROL.child(2, n), () -> pending(outlet));
            tree.control(SPDU_CONTROL.child(3, n), () -> onOne(outlet), outlet, SPDU_COMMANDS);
            tree.constant(SPDU_CONTROL.child(4, n), SnmpValue.string(outlet.name()));
            tree.constant(HARDWARE.child(4, 5, 2, 1, 5, n), SnmpValue.integer(rebootSeconds));
        }
    }

    /** on(1), off(2): rPDU status and the read side of the control columns. */
    private static SnmpValue onOne(SnmpOutlet outlet) {
        return SnmpValue.integer(outlet.power() == PowerState.ON ? 1 : 2);
    }

    /** off(1), on(2): rPDU2OutletSwitchedStatusState. */
    private static SnmpValue onTwo(SnmpOutlet outlet) {
        return SnmpValue.integer(outlet.power() == PowerState.ON ? 2 : 1);
    }

    /** commandPending(1), noCommandPending(2). */
    private static SnmpValue pending(SnmpOutlet outlet) {
        return SnmpValue.integer(outlet.pending().isEmpty() ? 2 : 1);
    }
}
