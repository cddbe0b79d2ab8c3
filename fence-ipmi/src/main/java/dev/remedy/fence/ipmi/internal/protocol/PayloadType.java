package dev.remedy.fence.ipmi.internal.protocol;

/** RMCP+ payload types (the low six bits of the session header's payload type byte). */
public enum PayloadType {
    /** An IPMI request or response message. */
    IPMI_MESSAGE(0x00),
    /** RMCP+ Open Session Request. */
    OPEN_SESSION_REQUEST(0x10),
    /** RMCP+ Open Session Response. */
    OPEN_SESSION_RESPONSE(0x11),
    /** RAKP Message 1 (console to BMC). */
    RAKP_1(0x12),
    /** RAKP Message 2 (BMC to console). */
    RAKP_2(0x13),
    /** RAKP Message 3 (console to BMC). */
    RAKP_3(0x14),
    /** RAKP Message 4 (BMC to console). */
    RAKP_4(0x15);

    private final int code;

    PayloadType(int code) {
        this.code = code;
    }

    /** The six-bit code on the wire. */
    public int code() {
        return code;
    }

    /**
     * The type with {@code code}.
     *
     * @throws IllegalArgumentException if the code is not one of these types (e.g. OEM 0x02 or SOL 0x01)
     */
    public static PayloadType of(int code) {
        for (PayloadType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException(String.format("unsupported RMCP+ payload type 0x%02x", code));
    }
}
