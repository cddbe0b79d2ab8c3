package dev.remedy.fence.ipmi.internal.protocol;

/**
 * The parts of a Get Chassis Status response (IPMI v2.0 table 28-3) a fence agent needs.
 *
 * @param powerOn system power is on
 * @param powerOverload the last power down was caused by an overload
 * @param powerFault a power fault was detected
 * @param powerControlFault the power control did not change the power state
 */
public record ChassisStatus(boolean powerOn, boolean powerOverload, boolean powerFault, boolean powerControlFault) {

    /**
     * Reads the response data after the completion code.
     *
     * @throws MalformedPacketException if the current power state byte is missing
     */
    public static ChassisStatus decode(byte[] data) {
        MalformedPacketException.require(data.length >= 1, "Get Chassis Status response", 1,
                () -> "the current power state byte is missing");
        int state = data[0] & 0xFF;
        return new ChassisStatus((state & 0x01) != 0, (state & 0x02) != 0, (state & 0x08) != 0,
                (state & 0x10) != 0);
    }
}
