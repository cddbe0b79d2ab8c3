package dev.remedy.simulators.snmp;

import java.util.Arrays;
import java.util.List;

/**
 * The kinds of device the emulator speaks, each with the {@code sysObjectID} it answers (by which ClusterLabs'
 * agents and remedy's profiles choose their OID table) and the subtrees its MIB occupies.
 */
public enum SnmpDeviceKind {

    /**
     * An APC Switched Rack PDU (AP79xx, AP86xx): the PowerNet-MIB rPDU2 outlet tables
     * ({@code rPDU2OutletSwitchedStatusState} off(1)/on(2), {@code rPDU2OutletSwitchedControlCommand}) and, as
     * these PDUs also serve it, the older rPDU table ({@code rPDUOutletControlOutletCommand},
     * {@code rPDUOutletStatusOutletState} on(1)/off(2)) that {@code fence_apc_snmp} uses for this sysObjectID.
     */
    APC_RACK_PDU("1.3.6.1.4.1.318.1.3.4.5", "APC Switched Rack PDU", "1.3.6.1.4.1.318"),

    /**
     * An APC MasterSwitch: the PowerNet-MIB sPDU tables, where {@code sPDUOutletCtl} both reads (outletOn(1),
     * outletOff(2)) and switches the outlet. {@code fence_apc_snmp} falls back to this table for a sysObjectID it
     * does not know.
     */
    APC_MASTER_SWITCH("1.3.6.1.4.1.318.1.3.4.1", "APC MasterSwitch", "1.3.6.1.4.1.318"),

    /**
     * An Eaton Managed ePDU as {@code fence_eaton_snmp} knows it: outlet rows indexed from 0 (outlet 1 is row 0),
     * one column that reads and switches (off(0), on(1), cycling(2)).
     */
    EATON_EPDU("1.3.6.1.4.1.534.6.6.6", "Eaton Managed ePDU", "1.3.6.1.4.1.534"),

    /**
     * A Raritan Dominion PX (PDU-MIB): {@code outletOperationalState} reads and switches (off(0), on(1),
     * cycling(2)), {@code outletLabel} names the outlet.
     */
    RARITAN_PX("1.3.6.1.4.1.13742.4", "Raritan Dominion PX", "1.3.6.1.4.1.13742"),

    /**
     * An Ethernet switch's IF-MIB: {@code ifIndex}, {@code ifDescr}, {@code ifAdminStatus} (up(1), down(2); the
     * MIB's testing(3) is refused), {@code ifOperStatus} and {@code ifName}. Port {@code n} has ifIndex
     * {@code 10100 + n}, so that an agent must resolve it rather than guess it.
     */
    IF_MIB_SWITCH("1.3.6.1.4.1.8072.3.2.10", "Ethernet switch", "1.3.6.1.2.1.2", "1.3.6.1.2.1.31.1.1");

    private final Oid sysObjectId;
    private final String description;
    private final List<Oid> subtrees;

    SnmpDeviceKind(String sysObjectId, String description, String... subtrees) {
        this.sysObjectId = Oid.parse(sysObjectId);
        this.description = description;
        this.subtrees = Arrays.stream(subtrees).map(Oid::parse).toList();
    }

    /** The {@code sysObjectID.0} the device answers. */
    public Oid sysObjectId() {
        return sysObjectId;
    }

    /** The device as {@code sysDescr.0} describes it. */
    public String description() {
        return description;
    }

    /** The subtrees the device's outlet or port MIB lives in (what snmpd hands to the pass_persist front). */
    public List<Oid> subtrees() {
        return subtrees;
    }
}
