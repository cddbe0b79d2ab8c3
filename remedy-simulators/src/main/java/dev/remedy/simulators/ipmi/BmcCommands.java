package dev.remedy.simulators.ipmi;

import static dev.remedy.simulators.ipmi.IpmiRequest.NETFN_APP;
import static dev.remedy.simulators.ipmi.IpmiRequest.NETFN_CHASSIS;

import dev.remedy.spi.PowerState;
import java.util.List;

/**
 * The IPMI commands a simulated BMC understands, with the privilege each needs. Outside a session only Get
 * Channel Authentication Capabilities, Get Channel Cipher Suites and Get System GUID are served; everything
 * else there gets 0xD4. Unknown commands get 0xC1.
 */
final class BmcCommands {

    static final int GET_DEVICE_ID = 0x01;
    static final int GET_SYSTEM_GUID = 0x37;
    static final int GET_CHANNEL_AUTH_CAPABILITIES = 0x38;
    static final int SET_SESSION_PRIVILEGE_LEVEL = 0x3b;
    static final int CLOSE_SESSION = 0x3c;
    static final int GET_CHANNEL_CIPHER_SUITES = 0x54;
    static final int GET_CHASSIS_STATUS = 0x01;
    static final int CHASSIS_CONTROL = 0x02;
    static final int CHASSIS_IDENTIFY = 0x04;

    /** The LAN channel every simulated BMC reports. */
    static final int CHANNEL = 1;
    /** "This channel" in a channel field. */
    static final int CURRENT_CHANNEL = 0x0e;

    private final BmcProtocol bmc;

    BmcCommands(BmcProtocol bmc) {
        this.bmc = bmc;
    }

    /** Whether running the request twice would act twice; such a request retransmitted is answered from memory. */
    static boolean changesState(IpmiRequest request) {
        return request.netFn() == NETFN_APP && (request.command() == SET_SESSION_PRIVILEGE_LEVEL
                || request.command() == CLOSE_SESSION)
                || request.netFn() == NETFN_CHASSIS && (request.command() == CHASSIS_CONTROL
                || request.command() == CHASSIS_IDENTIFY);
    }

    /** Runs {@code request}, in {@code session} or, if null, outside any session. */
    IpmiResponse execute(IpmiRequest request, BmcSession session) {
        Integer injected = bmc.injectedFailure(request);
        if (injected != null) {
            return IpmiResponse.error(injected);
        }
        if (request.netFn() == NETFN_APP) {
            return switch (request.command()) {
                case GET_CHANNEL_AUTH_CAPABILITIES -> authCapabilities(request.data());
                case GET_CHANNEL_CIPHER_SUITES -> cipherSuites(request.data());
                case GET_SYSTEM_GUID -> IpmiResponse.ok(bmc.guid.clone());
                case GET_DEVICE_ID -> allowed(session, Privilege.USER) ? deviceId() : denied();
                case SET_SESSION_PRIVILEGE_LEVEL -> session != null ? setPrivilege(request.data(), session) : denied();
                case CLOSE_SESSION -> session != null ? closeSession(request.data(), session) : denied();
                default -> IpmiResponse.error(IpmiResponse.INVALID_COMMAND);
            };
        }
        if (request.netFn() == NETFN_CHASSIS) {
            return switch (request.command()) {
                case GET_CHASSIS_STATUS -> allowed(session, Privilege.USER) ? chassisStatus() : denied();
                case CHASSIS_CONTROL -> allowed(session, Privilege.OPERATOR) ? chassisControl(request.data()) : denied();
                case CHASSIS_IDENTIFY -> allowed(session, Privilege.OPERATOR) ? IpmiResponse.ok() : denied();
                default -> IpmiResponse.error(IpmiResponse.INVALID_COMMAND);
            };
        }
        return IpmiResponse.error(IpmiResponse.INVALID_COMMAND);
    }

    private static boolean allowed(BmcSession session, Privilege needed) {
        return session != null && session.privilege.atLeast(needed);
    }

    private static IpmiResponse denied() {
        return IpmiResponse.error(IpmiResponse.INSUFFICIENT_PRIVILEGE);
    }

    private IpmiResponse authCapabilities(byte[] data) {
        if (data.length < 2) {
            return IpmiResponse.error(IpmiResponse.REQUEST_DATA_LENGTH_INVALID);
        }
        int channel = data[0] & 0x0f;
        int level = data[1] & 0x0f;
        if (channel != CURRENT_CHANNEL && channel != CHANNEL || level < 1 || level > 5) {
            return IpmiResponse.error(IpmiResponse.INVALID_DATA_FIELD);
        }
        boolean v2 = (data[0] & 0x80) != 0;
        int loginStatus = (bmc.spec.bmcKeyOrNull() != null ? 0x20 : 0x00) | 0x04;
        return IpmiResponse.ok((byte) CHANNEL, (byte) (v2 ? 0x80 : 0x00), (byte) loginStatus,
                (byte) (v2 ? 0x02 : 0x00), (byte) 0, (byte) 0, (byte) 0, (byte) 0);
    }

    private IpmiResponse cipherSuites(byte[] data) {
        if (data.length < 3) {
            return IpmiResponse.error(IpmiResponse.REQUEST_DATA_LENGTH_INVALID);
        }
        int channel = data[0] & 0x0f;
        if (channel != CURRENT_CHANNEL && channel != CHANNEL || (data[1] & 0x3f) != 0) {
            return IpmiResponse.error(IpmiResponse.INVALID_DATA_FIELD);
        }
        List<Integer> enabled = bmc.cipherSuites();
        byte[] records = new byte[5 * enabled.size()];
        int at = 0;
        for (int id : enabled) {
            CipherSuite suite = CipherSuite.byId(id).orElseThrow();
            records[at++] = (byte) 0xc0;
            records[at++] = (byte) id;
            records[at++] = (byte) suite.authenticationAlgorithm();
            records[at++] = (byte) (0x40 | suite.integrityAlgorithm());
            records[at++] = (byte) (0x80 | suite.confidentialityAlgorithm());
        }
        int from = Math.min(16 * (data[2] & 0x3f), records.length);
        int to = Math.min(from + 16, records.length);
        byte[] answer = new byte[1 + to - from];
        answer[0] = (byte) CHANNEL;
        System.arraycopy(records, from, answer, 1, to - from);
        return IpmiResponse.ok(answer);
    }

    private static IpmiResponse deviceId() {
        // device id, revision, firmware 1.00 (available), IPMI 2.0, chassis + sensor device,
        // manufacturer 0 (none), product 1, auxiliary firmware revision 0
        return IpmiResponse.ok((byte) 0x20, (byte) 0x01, (byte) 0x01, (byte) 0x00, (byte) 0x02, (byte) 0x81,
                (byte) 0, (byte) 0, (byte) 0, (byte) 0x01, (byte) 0x00, (byte) 0, (byte) 0, (byte) 0, (byte) 0);
    }

    private static IpmiResponse setPrivilege(byte[] data, BmcSession session) {
        if (data.length < 1) {
            return IpmiResponse.error(IpmiResponse.REQUEST_DATA_LENGTH_INVALID);
        }
        int level = data[0] & 0x0f;
        if (level == 0) {
            return IpmiResponse.ok((byte) session.privilege.level());
        }
        if (level > Privilege.ADMINISTRATOR.level()) {
            return IpmiResponse.error(IpmiResponse.INVALID_DATA_FIELD);
        }
        if (level > session.user.maxPrivilege().level()) {
            return IpmiResponse.error(IpmiResponse.LEVEL_NOT_AVAILABLE_FOR_USER);
        }
        if (level > session.maxPrivilege.level()) {
            return IpmiResponse.error(IpmiResponse.LEVEL_EXCEEDS_LIMIT);
        }
        session.privilege = Privilege.ofLevel(level);
        return IpmiResponse.ok((byte) level);
    }

    private IpmiResponse closeSession(byte[] data, BmcSession session) {
        if (data.length < 4) {
            return IpmiResponse.error(IpmiResponse.REQUEST_DATA_LENGTH_INVALID);
        }
        int id = Wire.i32(data, 0);
        if (id == session.bmcId) {
            session.closing = true;
            return IpmiResponse.ok();
        }
        BmcSession other = id == 0 ? null : bmc.sessions.get(id);
        if (other == null || other.state == BmcSession.State.CLOSED) {
            return IpmiResponse.error(IpmiResponse.INVALID_SESSION_ID);
        }
        if (!session.privilege.atLeast(Privilege.ADMINISTRATOR)) {
            return denied();
        }
        bmc.close(other, bmc.nanoClock.getAsLong());
        return IpmiResponse.ok();
    }

    private IpmiResponse chassisStatus() {
        int on = bmc.power.power() == PowerState.ON ? 0x01 : 0x00;
        return IpmiResponse.ok((byte) on, (byte) 0, (byte) 0);
    }

    private IpmiResponse chassisControl(byte[] data) {
        if (data.length < 1) {
            return IpmiResponse.error(IpmiResponse.REQUEST_DATA_LENGTH_INVALID);
        }
        int control = data[0] & 0x0f;
        bmc.recordChassisControl(control);
        boolean on = bmc.power.power() == PowerState.ON;
        switch (control) {
            case 0, 5 -> bmc.power.commandSteps(PowerState.OFF);
            case 1 -> bmc.power.commandSteps(PowerState.ON);
            case 2 -> {
                if (!on) {
                    return IpmiResponse.error(IpmiResponse.NOT_SUPPORTED_IN_PRESENT_STATE);
                }
                bmc.power.commandSteps(PowerState.OFF, PowerState.ON);
            }
            case 3 -> {
                if (!on) {
                    return IpmiResponse.error(IpmiResponse.NOT_SUPPORTED_IN_PRESENT_STATE);
                }
                bmc.resets.incrementAndGet();
            }
            default -> {
                return IpmiResponse.error(IpmiResponse.INVALID_DATA_FIELD);
            }
        }
        return IpmiResponse.ok();
    }
}
