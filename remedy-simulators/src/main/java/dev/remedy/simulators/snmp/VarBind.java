package dev.remedy.simulators.snmp;

import java.util.Objects;

/**
 * One variable binding: an instance OID and its value.
 *
 * @param oid the instance, such as {@code .1.3.6.1.2.1.2.2.1.7.3}
 * @param value its value
 */
public record VarBind(Oid oid, SnmpValue value) {

    /** Checks that neither part is null. */
    public VarBind {
        Objects.requireNonNull(oid, "oid");
        Objects.requireNonNull(value, "value");
    }
}
