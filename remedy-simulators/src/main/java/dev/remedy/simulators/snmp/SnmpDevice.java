package dev.remedy.simulators.snmp;

import dev.remedy.spi.PowerState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One emulated SNMP device (a PDU or a switch), pure Java: its variables in walk order (the system group's
 * {@code sysDescr}, {@code sysObjectID} and {@code sysName}, then its kind's outlet or port MIB), GET, GETNEXT and
 * SET as an SNMP agent answers them, and its outlets for a test to observe and set directly. The front that puts
 * it on the wire is someone else's: {@link SnmpPassPersist} behind Debian's snmpd, or an in-JVM SNMP agent.
 *
 * <p>A SET is all or nothing: every binding is checked before any is carried out, and the first refused one
 * names the error ({@link SnmpSetException}). Time (reboots, delayed commands) runs on the injected {@link Clock}.
 * Thread-safe.
 */
public final class SnmpDevice {

    /** {@code sysDescr.0}. */
    public static final Oid SYS_DESCR = Oid.parse("1.3.6.1.2.1.1.1.0");
    /** {@code sysObjectID.0}. */
    public static final Oid SYS_OBJECT_ID = Oid.parse("1.3.6.1.2.1.1.2.0");
    /** {@code sysName.0}. */
    public static final Oid SYS_NAME = Oid.parse("1.3.6.1.2.1.1.5.0");

    private final SnmpDeviceSpec spec;
    private final List<SnmpOutlet> outlets;
    private final MibTree tree = new MibTree();

    private SnmpDevice(SnmpDeviceSpec spec, Clock clock) {
        this.spec = spec;
        List<SnmpOutlet> list = new ArrayList<>();
        for (int n = 1; n <= spec.outlets(); n++) {
            list.add(new SnmpOutlet(n, outletName(spec.kind(), n), clock, spec.rebootDelay(), PowerState.ON));
        }
        this.outlets = List.copyOf(list);
    }

    /**
     * A device with every outlet (or port) on.
     *
     * @param clock the clock its reboots and delayed commands run on ({@link Clock#systemUTC()}, or a test's fake)
     */
    public static SnmpDevice create(SnmpDeviceSpec spec, Clock clock) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(clock, "clock");
        SnmpDevice device = new SnmpDevice(spec, clock);
        device.tree.constant(SYS_DESCR, SnmpValue.string(spec.kind().description()));
        device.tree.constant(SYS_OBJECT_ID, SnmpValue.objectId(spec.kind().sysObjectId()));
        device.tree.constant(SYS_NAME, SnmpValue.string(spec.name()));
        switch (spec.kind()) {
            case APC_RACK_PDU -> PowerNetMib.rackPdu(device.tree, device);
            case APC_MASTER_SWITCH -> PowerNetMib.masterSwitch(device.tree, device);
            case EATON_EPDU -> OutletStateMib.eaton(device.tree, device);
            case RARITAN_PX -> OutletStateMib.raritan(device.tree, device);
            case IF_MIB_SWITCH -> InterfacesMib.build(device.tree, device);
        }
        return device;
    }

    /** What the device is. */
    public SnmpDeviceSpec spec() {
        return spec;
    }

    /** The device's name. */
    public String name() {
        return spec.name();
    }

    /** The device's kind. */
    public SnmpDeviceKind kind() {
        return spec.kind();
    }

    /** Every outlet (port), numbered from 1. */
    public List<SnmpOutlet> outlets() {
        return outlets;
    }

    /**
     * Outlet (port) {@code number}, from 1.
     *
     * @throws IllegalArgumentException if the device has no such outlet
     */
    public SnmpOutlet outlet(int number) {
        if (number < 1 || number > outlets.size()) {
            throw new IllegalArgumentException("device " + name() + " has outlets 1 to " + outlets.size()
                    + ", not " + number);
        }
        return outlets.get(number - 1);
    }

    /**
     * The ifIndex of switch port {@code port} ({@code 10100 + port}).
     *
     * @throws IllegalArgumentException if there is no such port
     */
    public int ifIndex(int port) {
        return InterfacesMib.IF_INDEX_BASE + outlet(port).number();
    }

    /** GET: the instance at {@code oid}, or empty (noSuchObject/noSuchInstance). */
    public synchronized Optional<VarBind> get(Oid oid) {
        return tree.get(oid);
    }

    /** GETNEXT: the first instance after {@code oid} in walk order, or empty at the end of the MIB view. */
    public synchronized Optional<VarBind> next(Oid oid) {
        return tree.next(oid);
    }

    /**
     * SET of one instance.
     *
     * @return the binding as set (what an agent answers)
     * @throws SnmpSetException if the device refuses it; nothing changed then
     */
    public VarBind set(Oid oid, SnmpValue value) {
        return set(List.of(new VarBind(oid, value))).get(0);
    }

    /**
     * SET of several instances at once: all are checked first, then all carried out in order.
     *
     * @return the bindings as set
     * @throws SnmpSetException for the first binding the device refuses; nothing changed then
     */
    public synchronized List<VarBind> set(List<VarBind> bindings) {
        List<Runnable> changes = new ArrayList<>();
        for (VarBind binding : bindings) {
            changes.add(tree.prepare(binding.oid(), binding.value()));
        }
        changes.forEach(Runnable::run);
        return List.copyOf(bindings);
    }

    private static String outletName(SnmpDeviceKind kind, int number) {
        return kind == SnmpDeviceKind.IF_MIB_SWITCH ? InterfacesMib.name(number) : "Outlet " + number;
    }

    @Override
    public String toString() {
        return "SnmpDevice[" + name() + ", " + kind() + ", " + outlets.size() + " outlets]";
    }
}
