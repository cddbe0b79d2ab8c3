package dev.remedy.simulators.snmp;

import dev.remedy.simulators.snmp.MibTree.Choice;
import dev.remedy.spi.PowerState;
import java.util.Map;

/** IF-MIB for a switch: ifNumber, the ifTable columns a port agent uses, and ifName from the ifXTable. */
final class InterfacesMib {

    /** Port {@code n} has ifIndex {@code IF_INDEX_BASE + n}. */
    static final int IF_INDEX_BASE = 10100;

    private static final Oid IF_NUMBER = Oid.parse("1.3.6.1.2.1.2.1.0");
    private static final Oid IF_ENTRY = Oid.parse("1.3.6.1.2.1.2.2.1");
    private static final Oid IF_X_ENTRY = Oid.parse("1.3.6.1.2.1.31.1.1.1");
    private static final int ETHERNET_CSMACD = 6;

    private static final Map<Integer, Choice> ADMIN = Map.of(
            1, new Choice("up", OutletCommand.ON),
            2, new Choice("down", OutletCommand.OFF),
            3, new Choice("testing", null));

    private InterfacesMib() {
    }

    static void build(MibTree tree, SnmpDevice device) {
        tree.constant(IF_NUMBER, SnmpValue.integer(device.outlets().size()));
        for (SnmpOutlet port : device.outlets()) {
            int index = IF_INDEX_BASE + port.number();
            tree.constant(IF_ENTRY.child(1, index), SnmpValue.integer(index));
            tree.constant(IF_ENTRY.child(2, index), SnmpValue.string(description(port.number())));
            tree.constant(IF_ENTRY.child(3, index), SnmpValue.integer(ETHERNET_CSMACD));
            tree.control(IF_ENTRY.child(7, index), () -> upDown(port), port, ADMIN);
            tree.readOnly(IF_ENTRY.child(8, index), () -> upDown(port));
            tree.constant(IF_X_ENTRY.child(1, index), SnmpValue.string(port.name()));
        }
    }

    /** The port's ifName: {@code Gi1/0/<n>}. */
    static String name(int port) {
        return "Gi1/0/" + port;
    }

    /** The port's ifDescr: {@code GigabitEthernet1/0/<n>}. */
    static String description(int port) {
        return "GigabitEthernet1/0/" + port;
    }

    /** up(1), down(2): ifAdminStatus and, as the emulated links follow it at once, ifOperStatus. */
    private static SnmpValue upDown(SnmpOutlet port) {
        return SnmpValue.integer(port.power() == PowerState.ON ? 1 : 2);
    }
}
