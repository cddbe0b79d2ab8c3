package dev.remedy.fence.ipmi.internal.protocol;

/** The IPMI commands this client sends, with their network function, command number and least privilege. */
public enum Command {
    /** Get Device ID (App): the BMC identifies itself; used for {@code monitor}. */
    GET_DEVICE_ID(0x06, 0x01, Privilege.USER),
    /** Get Channel Authentication Capabilities (App), sent outside a session before it is opened. */
    GET_CHANNEL_AUTH_CAPABILITIES(0x06, 0x38, Privilege.CALLBACK),
    /** Get Channel Cipher Suites (App), sent outside a session to learn which suites the BMC offers. */
    GET_CHANNEL_CIPHER_SUITES(0x06, 0x54, Privilege.CALLBACK),
    /** Set Session Privilege Level (App). */
    SET_SESSION_PRIVILEGE_LEVEL(0x06, 0x3B, Privilege.CALLBACK),
    /** Close Session (App). */
    CLOSE_SESSION(0x06, 0x3C, Privilege.CALLBACK),
    /** Get Chassis Status (Chassis): power state and faults. */
    GET_CHASSIS_STATUS(0x00, 0x01, Privilege.USER),
    /** Chassis Control (Chassis): power down, up, cycle, hard reset, soft shutdown. */
    CHASSIS_CONTROL(0x00, 0x02, Privilege.OPERATOR);

    private final int netFn;
    private final int code;
    private final Privilege privilege;

    Command(int netFn, int code, Privilege privilege) {
        this.netFn = netFn;
        this.code = code;
        this.privilege = privilege;
    }

    /** The request network function (the response's is one more). */
    public int netFn() {
        return netFn;
    }

    /** The command number. */
    public int code() {
        return code;
    }

    /** The least session privilege the command needs. */
    public Privilege privilege() {
        return privilege;
    }

    /** The command's name for messages, e.g. {@code Get Chassis Status}. */
    public String title() {
        return switch (this) {
            case GET_DEVICE_ID -> "Get Device ID";
            case GET_CHANNEL_AUTH_CAPABILITIES -> "Get Channel Authentication Capabilities";
            case GET_CHANNEL_CIPHER_SUITES -> "Get Channel Cipher Suites";
            case SET_SESSION_PRIVILEGE_LEVEL -> "Set Session Privilege Level";
            case CLOSE_SESSION -> "Close Session";
            case GET_CHASSIS_STATUS -> "Get Chassis Status";
            case CHASSIS_CONTROL -> "Chassis Control";
        };
    }

    /** The request message with sequence number {@code sequence}. */
    public IpmiMessage request(int sequence, byte[] data) {
        return IpmiMessage.request(netFn, code, sequence, data);
    }

    /** Whether {@code message} is the response to this command with sequence number {@code sequence}. */
    public boolean answeredBy(IpmiMessage message, int sequence) {
        return message.isResponse() && message.netFn() == netFn + 1 && message.command() == code
                && message.sequence() == sequence;
    }
}
