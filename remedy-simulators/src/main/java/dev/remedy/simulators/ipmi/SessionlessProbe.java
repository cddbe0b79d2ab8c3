package dev.remedy.simulators.ipmi;

import java.util.Arrays;

/**
 * IPMI 1.5 session-less requests (authentication type none, session 0), as a console sends them before any
 * session, and reading their answers. Used to tell when a BMC is up.
 */
final class SessionlessProbe {

    private SessionlessProbe() {
    }

    /** Get Channel Authentication Capabilities for this channel, IPMI v2.0 data, administrator. */
    static byte[] authCapabilities() {
        return request(IpmiRequest.NETFN_APP, BmcCommands.GET_CHANNEL_AUTH_CAPABILITIES, 0, 0x8e, 0x04);
    }

    /** Get System GUID. */
    static byte[] systemGuid() {
        return request(IpmiRequest.NETFN_APP, BmcCommands.GET_SYSTEM_GUID, 1);
    }

    /** A whole datagram: RMCP header, IPMI 1.5 session header, the request message. */
    static byte[] request(int netFn, int command, int rqSeq, int... data) {
        byte[] message = new byte[7 + data.length];
        message[0] = 0x20;
        message[1] = (byte) (netFn << 2);
        message[2] = Wire.checksum(message, 0, 2);
        message[3] = (byte) 0x81;
        message[4] = (byte) (rqSeq << 2);
        message[5] = (byte) command;
        for (int i = 0; i < data.length; i++) {
            message[6 + i] = (byte) data[i];
        }
        message[message.length - 1] = Wire.checksum(message, 3, message.length - 4);
        byte[] datagram = new byte[14 + message.length];
        datagram[0] = 0x06;
        datagram[2] = (byte) 0xff;
        datagram[3] = 0x07;
        datagram[13] = (byte) message.length;
        System.arraycopy(message, 0, datagram, 14, message.length);
        return datagram;
    }

    /** Whether {@code datagram} is a session-less answer to {@code command} with completion code 0. */
    static boolean completedOk(byte[] datagram, int command) {
        return datagram.length >= 14 + 8 && datagram[0] == 0x06 && datagram[3] == 0x07 && datagram[4] == 0x00
                && (datagram[14 + 5] & 0xff) == command && datagram[14 + 6] == 0x00;
    }

    /** The response data after the completion code of a session-less answer. */
    static byte[] data(byte[] datagram) {
        int messageLength = datagram[13] & 0xff;
        return Arrays.copyOfRange(datagram, 14 + 7, 14 + messageLength - 1);
    }
}
