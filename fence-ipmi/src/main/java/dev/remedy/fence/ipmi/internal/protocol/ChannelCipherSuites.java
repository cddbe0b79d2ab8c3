package dev.remedy.fence.ipmi.internal.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * Get Channel Cipher Suites (IPMI v2.0 §22.15): the BMC lists its suites as records, 16 bytes per page. A
 * standard record is 0xC0, the suite id, then one byte per algorithm; an OEM record is 0xC1, the suite id, a
 * three-byte IANA number, then the algorithms. Algorithm bytes carry their kind in the top two bits (00, 01, 10),
 * so they never read as a record start.
 */
public final class ChannelCipherSuites {

    /** Record bytes in a full page: a shorter page is the last. */
    public static final int PAGE = 16;
    /** The most pages asked for (the list index has six bits; real BMCs need two or three). */
    public static final int MAX_PAGES = 8;

    private static final int THIS_CHANNEL = 0x0E;
    private static final int LIST_BY_SUITE = 0x80;
    private static final int STANDARD_RECORD = 0xC0;
    private static final int OEM_RECORD = 0xC1;
    private static final int IANA_LENGTH = 3;

    private ChannelCipherSuites() {
    }

    /** The request data for page {@code index} of this channel's list of suites (IPMI payload type). */
    public static byte[] requestData(int index) {
        return new byte[] {(byte) THIS_CHANNEL, 0x00, (byte) (LIST_BY_SUITE | index)};
    }

    /** The record bytes of a response's data after the completion code (the channel byte dropped). */
    public static byte[] records(byte[] data) {
        MalformedPacketException.require(data.length >= 1, "Get Channel Cipher Suites response", 0,
                () -> "no channel number");
        byte[] records = new byte[data.length - 1];
        System.arraycopy(data, 1, records, 0, records.length);
        return records;
    }

    /** The suite ids of all records, in the BMC's order. */
    public static List<Integer> suiteIds(byte[] records) {
        List<Integer> ids = new ArrayList<>();
        int at = 0;
        while (at < records.length) {
            int start = records[at] & 0xFF;
            if ((start == STANDARD_RECORD || start == OEM_RECORD) && at + 1 < records.length) {
                ids.add(records[at + 1] & 0x3F);
                at += start == OEM_RECORD ? 2 + IANA_LENGTH : 2;
            } else {
                at++;
            }
        }
        return ids;
    }
}
