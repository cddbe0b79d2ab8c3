package dev.remedy.fence.snmp.internal.profile;

/**
 * A SET of one integer value (SNMP INTEGER / Integer32) to one OID.
 *
 * @param oid   the OID to SET
 * @param value the value
 */
public record Write(Oid oid, int value) {
}
