package dev.remedy.simulators.snmp;

import java.util.Objects;

/**
 * A value an emulated device holds or is sent: an INTEGER, an OCTET STRING (text) or an OBJECT IDENTIFIER.
 *
 * @param type the SNMP type
 * @param text the value as text: decimal for an INTEGER, the string itself, dotted decimal for an OID
 */
public record SnmpValue(Type type, String text) {

    /** The SNMP types the emulated devices use, with the names net-snmp's pass_persist protocol gives them. */
    public enum Type {
        /** INTEGER (Integer32, and the enumerations of the outlet and port MIBs). */
        INTEGER("integer"),
        /** OCTET STRING holding text (DisplayString). */
        STRING("string"),
        /** OBJECT IDENTIFIER. */
        OBJECT_ID("objectid");

        private final String passPersistName;

        Type(String passPersistName) {
            this.passPersistName = passPersistName;
        }

        /** The type's name in the pass_persist protocol ({@code integer}, {@code string}, {@code objectid}). */
        public String passPersistName() {
            return passPersistName;
        }
    }

    /**
     * Checks the text against the type.
     *
     * @throws IllegalArgumentException if an INTEGER is not a 32-bit decimal or an OID not dotted decimal
     */
    public SnmpValue {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(text, "text");
        if (type == Type.INTEGER) {
            try {
                Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("INTEGER value '" + text + "' is not a 32-bit decimal number", e);
            }
        } else if (type == Type.OBJECT_ID) {
            Oid.parse(text);
        }
    }

    /** An INTEGER. */
    public static SnmpValue integer(int value) {
        return new SnmpValue(Type.INTEGER, Integer.toString(value));
    }

    /** An OCTET STRING holding {@code text}. */
    public static SnmpValue string(String text) {
        return new SnmpValue(Type.STRING, text);
    }

    /** An OBJECT IDENTIFIER. */
    public static SnmpValue objectId(Oid oid) {
        return new SnmpValue(Type.OBJECT_ID, oid.toString());
    }

    /**
     * The INTEGER's value.
     *
     * @throws IllegalStateException if this is not an INTEGER
     */
    public int intValue() {
        if (type != Type.INTEGER) {
            throw new IllegalStateException("value " + this + " is not an INTEGER");
        }
        return Integer.parseInt(text);
    }

    @Override
    public String toString() {
        return type.passPersistName() + " " + (type == Type.STRING ? "\"" + text + "\"" : text);
    }
}
