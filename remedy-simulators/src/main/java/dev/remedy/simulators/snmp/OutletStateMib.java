package dev.remedy.simulators.snmp;

import dev.remedy.simulators.snmp.MibTree.Choice;
import dev.remedy.spi.PowerState;
import java.util.Map;

/**
 * The MIBs where one outlet column both reads and switches with off(0), on(1), cycling(2): Eaton's Managed ePDU
 * (rows from 0) and Raritan's PDU-MIB (rows from 1). During the device's own reboot the column reads cycling(2),
 * neither on nor off.
 */
final class OutletStateMib {

    private static final Oid EATON_OUTLETS = Oid.parse("1.3.6.1.4.1.534.6.6.6.1.2.2.1");
    private static final Oid RARITAN_OUTLETS = Oid.parse("1.3.6.1.4.1.13742.4.1.2.2.1");

    private static final Map<Integer, Choice> COMMANDS = Map.of(
            0, new Choice("off", OutletCommand.OFF),
            1, new Choice("on", OutletCommand.ON),
            2, new Choice("cycling", OutletCommand.REBOOT));

    private OutletStateMib() {
    }

    /**
     * Eaton: rows indexed from 0 (outlet {@code n} is row {@code n - 1}, as {@code fence_eaton_snmp} counts), the
     * index in column 1, the name in column 2, the state in column 3.
     */
    static void eaton(MibTree tree, SnmpDevice device) {
        for (SnmpOutlet outlet : device.outlets()) {
            int row = outlet.number() - 1;
            tree.constant(EATON_OUTLETS.child(1, row), SnmpValue.integer(row));
            tree.constant(EATON_OUTLETS.child(2, row), SnmpValue.string(outlet.name()));
            tree.control(EATON_OUTLETS.child(3, row), () -> state(outlet), outlet, COMMANDS);
        }
    }

    /** Raritan: outletIndex (1), outletLabel (2), outletOperationalState (3). */
    static void raritan(MibTree tree, SnmpDevice device) {
        for (SnmpOutlet outlet : device.outlets()) {
            int n = outlet.number();
            tree.constant(RARITAN_OUTLETS.child(1, n), SnmpValue.integer(n));
            tree.constant(RARITAN_OUTLETS.child(2, n), SnmpValue.string(outlet.name()));
            tree.control(RARITAN_OUTLETS.child(3, n), () -> state(outlet), outlet, COMMANDS);
        }
    }

    private static SnmpValue state(SnmpOutlet outlet) {
        if (outlet.rebooting()) {
            return SnmpValue.integer(2);
        }
        return SnmpValue.integer(outlet.power() == PowerState.ON ? 1 : 0);
    }
}
