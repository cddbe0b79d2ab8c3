package dev.remedy.simulators.snmp;

/**
 * Why an emulated device refuses a SET, with the error-status of RFC 3416 a real agent answers and the word
 * net-snmp's pass_persist protocol uses for it.
 */
public enum SnmpError {
    /** The variable exists but is read-only, or does not exist (the device creates no rows). */
    NOT_WRITABLE(17, "not-writable"),
    /** The value's type is not the variable's (a string for an INTEGER). */
    WRONG_TYPE(7, "wrong-type"),
    /** The value is one the MIB does not allow for the variable (an enumeration value it does not define). */
    WRONG_VALUE(10, "wrong-value"),
    /** The MIB allows the value, but this device does not accept it now (or ever). */
    INCONSISTENT_VALUE(12, "inconsistent-value");

    private final int errorStatus;
    private final String passPersistWord;

    SnmpError(int errorStatus, String passPersistWord) {
        this.errorStatus = errorStatus;
        this.passPersistWord = passPersistWord;
    }

    /** The error-status field of the response PDU (RFC 3416: notWritable 17, wrongValue 10…). */
    public int errorStatus() {
        return errorStatus;
    }

    /** What a pass_persist program answers a {@code set} with, for snmpd to turn into {@link #errorStatus()}. */
    public String passPersistWord() {
        return passPersistWord;
    }
}
