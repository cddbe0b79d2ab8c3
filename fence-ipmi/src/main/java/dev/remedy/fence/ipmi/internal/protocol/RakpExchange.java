package dev.remedy.fence.ipmi.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The public values of one RAKP exchange that go into the key exchange codes and session keys: both session
 * ids, both random numbers, the BMC GUID, the requested role and the user name. Session ids are encoded
 * little-endian, as on the wire. Immutable; arrays are copied in and out.
 */
public final class RakpExchange {

    /** Length of Rm, Rc and the BMC GUID in bytes. */
    public static final int RANDOM_LENGTH = 16;
    /** Bit of the requested role byte that asks the BMC to look the user up by name only. */
    public static final int NAME_ONLY_LOOKUP = 0x10;
    /** Longest IPMI user name in bytes. */
    public static final int MAX_USER_NAME_LENGTH = 16;

    private final int consoleSessionId;
    private final int bmcSessionId;
    private final byte[] consoleRandom;
    private final byte[] bmcRandom;
    private final byte[] bmcGuid;
    private final int requestedRole;
    private final byte[] userName;

    /**
     * @param consoleSessionId SIDm, the remote console's session id
     * @param bmcSessionId SIDc, the BMC's session id from the open session response
     * @param consoleRandom Rm, 16 bytes from RAKP 1
     * @param bmcRandom Rc, 16 bytes from RAKP 2
     * @param bmcGuid GUIDc, 16 bytes from RAKP 2
     * @param requestedRole RoleM, the whole role byte of RAKP 1: privilege level (4 = administrator) plus
     *     {@link #NAME_ONLY_LOOKUP} if set
     * @param userName UNameM, ASCII, at most 16 bytes, may be empty
     * @throws IllegalArgumentException if a length or the role is out of range
     */
    public RakpExchange(int consoleSessionId, int bmcSessionId, byte[] consoleRandom, byte[] bmcRandom,
            byte[] bmcGuid, int requestedRole, String userName) {
        this.consoleSessionId = consoleSessionId;
        this.bmcSessionId = bmcSessionId;
        this.consoleRandom = copy16(consoleRandom, "consoleRandom (Rm)");
        this.bmcRandom = copy16(bmcRandom, "bmcRandom (Rc)");
        this.bmcGuid = copy16(bmcGuid, "bmcGuid");
        if (requestedRole < 0 || requestedRole > 0xFF) {
            throw new IllegalArgumentException("requestedRole must be one byte (0..255), was " + requestedRole);
        }
        this.requestedRole = requestedRole;
        Objects.requireNonNull(userName, "userName");
        if (!StandardCharsets.US_ASCII.newEncoder().canEncode(userName)
                || userName.length() > MAX_USER_NAME_LENGTH) {
            throw new IllegalArgumentException("userName must be ASCII of at most " + MAX_USER_NAME_LENGTH
                    + " characters, was '" + userName + "'");
        }
        this.userName = userName.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] copy16(byte[] value, String name) {
        Objects.requireNonNull(value, name);
        if (value.length != RANDOM_LENGTH) {
            throw new IllegalArgumentException(name + " must be " + RANDOM_LENGTH + " bytes, was " + value.length);
        }
        return value.clone();
    }

    /** SIDm. */
    public int consoleSessionId() {
        return consoleSessionId;
    }

    /** SIDc. */
    public int bmcSessionId() {
        return bmcSessionId;
    }

    /** Rm (a copy). */
    public byte[] consoleRandom() {
        return consoleRandom.clone();
    }

    /** Rc (a copy). */
    public byte[] bmcRandom() {
        return bmcRandom.clone();
    }

    /** GUIDc (a copy). */
    public byte[] bmcGuid() {
        return bmcGuid.clone();
    }

    /** RoleM, the whole role byte. */
    public int requestedRole() {
        return requestedRole;
    }

    /** UNameM. */
    public String userName() {
        return new String(userName, StandardCharsets.US_ASCII);
    }

    /** RoleM | ULengthM | UNameM, the tail shared by RAKP 2, RAKP 3 and the SIK input. */
    byte[] roleAndUser() {
        byte[] out = new byte[2 + userName.length];
        out[0] = (byte) requestedRole;
        out[1] = (byte) userName.length;
        System.arraycopy(userName, 0, out, 2, userName.length);
        return out;
    }

    byte[] rm() {
        return consoleRandom;
    }

    byte[] rc() {
        return bmcRandom;
    }

    byte[] guid() {
        return bmcGuid;
    }

    static byte[] le32(int value) {
        return new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
    }

    @Override
    public String toString() {
        return String.format("RakpExchange[consoleSessionId=0x%08x, bmcSessionId=0x%08x, role=0x%02x, user=%s]",
                consoleSessionId, bmcSessionId, requestedRole, userName());
    }
}
