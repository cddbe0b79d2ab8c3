package dev.remedy.simulators.ipmi;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A user account on a simulated BMC. {@link #toString()} never shows the password.
 *
 * @param name the user name, 1 to 16 bytes of US-ASCII (the IPMI limit)
 * @param password the password, at most 20 bytes of US-ASCII (the IPMI v2.0 limit); may be empty
 * @param maxPrivilege the highest privilege a session of this user may reach
 */
public record BmcUser(String name, String password, Privilege maxPrivilege) {

    /** The longest user name IPMI allows, in bytes. */
    public static final int MAX_NAME_BYTES = 16;
    /** The longest password IPMI v2.0 allows, in bytes. */
    public static final int MAX_PASSWORD_BYTES = 20;

    /** Validates the account. */
    public BmcUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(maxPrivilege, "maxPrivilege");
        if (name.isEmpty() || name.length() > MAX_NAME_BYTES || !isPrintableAscii(name)) {
            throw new IllegalArgumentException("user name '" + name + "' must be 1 to " + MAX_NAME_BYTES
                    + " printable US-ASCII characters (IPMI limit)");
        }
        if (password.length() > MAX_PASSWORD_BYTES || !isPrintableAscii(password)) {
            throw new IllegalArgumentException("the password of user '" + name + "' must be at most "
                    + MAX_PASSWORD_BYTES + " printable US-ASCII characters (IPMI v2.0 limit)");
        }
    }

    /** The name as sent on the wire. */
    byte[] nameBytes() {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    /** Kuid: the password zero-padded to 20 bytes, the key of the RAKP codes. */
    byte[] kuid() {
        byte[] key = new byte[MAX_PASSWORD_BYTES];
        byte[] raw = password.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(raw, 0, key, 0, raw.length);
        return key;
    }

    static boolean isPrintableAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "BmcUser[" + name + ", " + maxPrivilege + ", password=****]";
    }
}
