package dev.remedy.simulators.snmp;

import java.util.Objects;

/** An emulated device refused a SET; {@link #error()} is what an SNMP agent answers. */
public final class SnmpSetException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient SnmpError error;

    /**
     * @param error the SNMP error
     * @param message what was wrong, with which OID and value
     */
    public SnmpSetException(SnmpError error, String message) {
        super(message);
        this.error = Objects.requireNonNull(error, "error");
    }

    /** The SNMP error the agent answers. */
    public SnmpError error() {
        return error;
    }
}
