package dev.remedy.fence.ipmi.internal.protocol;

/**
 * What a Get Channel Authentication Capabilities response (IPMI v2.0 §22.13) says about a LAN channel.
 *
 * @param channel the channel number that answered
 * @param ipmi20 the BMC accepts IPMI v2.0 (RMCP+) sessions on this channel
 * @param kgSet a non-zero BMC key (Kg) is configured, so the console must know it
 * @param anonymousLogin a null user name with a null password is enabled
 */
public record ChannelAuthCapabilities(int channel, boolean ipmi20, boolean kgSet, boolean anonymousLogin) {

    /** Channel number 0x0E: the channel this request arrives on. */
    public static final int THIS_CHANNEL = 0x0E;
    private static final int EXTENDED = 0x80;

    /** Request data asking for IPMI v2.0 extended data about this channel at {@code privilege}. */
    public static byte[] requestData(Privilege privilege) {
        return new byte[] {(byte) (EXTENDED | THIS_CHANNEL), (byte) privilege.code()};
    }

    /**
     * Reads the response data after the completion code.
     *
     * @throws MalformedPacketException if it is shorter than the 7 bytes of the response
     */
    public static ChannelAuthCapabilities decode(byte[] data) {
        MalformedPacketException.require(data.length >= 7, "Get Channel Authentication Capabilities response", 1,
                () -> data.length + " data bytes, 7 are needed");
        boolean extended = (data[1] & EXTENDED) != 0;
        boolean ipmi20 = extended && (data[3] & 0x02) != 0;
        return new ChannelAuthCapabilities(data[0] & 0x0F, ipmi20, (data[2] & 0x20) != 0, (data[2] & 0x01) != 0);
    }
}
