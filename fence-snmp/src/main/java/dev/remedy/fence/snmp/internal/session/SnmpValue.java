package dev.remedy.fence.snmp.internal.session;

/** One value a device answered, as far as the agents read values. */
public sealed interface SnmpValue {

    /**
     * An integer (INTEGER, Integer32, Gauge32, Unsigned32, Counter32).
     *
     * @param value the number
     */
    record Number(long value) implements SnmpValue {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    /**
     * An OCTET STRING, as text.
     *
     * @param text the text (printable; hex if the device sent bytes that are not)
     */
    record Text(String text) implements SnmpValue {
        @Override
        public String toString() {
            return "'" + text + "'";
        }
    }

    /**
     * No such object or instance: the device does not have the OID.
     *
     * @param why noSuchObject, noSuchInstance, endOfMibView or noSuchName
     */
    record Missing(String why) implements SnmpValue {
        @Override
        public String toString() {
            return why;
        }
    }

    /**
     * A value of another type (an OID, an address, time ticks).
     *
     * @param syntax the type's name
     * @param text   the value as text
     */
    record Other(String syntax, String text) implements SnmpValue {
        @Override
        public String toString() {
            return syntax + " " + text;
        }
    }
}
