package dev.remedy.simulators.ipmi;

/** Little-endian fields and IPMI checksums on byte arrays. */
final class Wire {

    private Wire() {
    }

    static int u8(byte[] b, int offset) {
        return b[offset] & 0xff;
    }

    static int u16(byte[] b, int offset) {
        return (b[offset] & 0xff) | (b[offset + 1] & 0xff) << 8;
    }

    static int i32(byte[] b, int offset) {
        return (b[offset] & 0xff) | (b[offset + 1] & 0xff) << 8 | (b[offset + 2] & 0xff) << 16
                | (b[offset + 3] & 0xff) << 24;
    }

    static void put16(byte[] b, int offset, int value) {
        b[offset] = (byte) value;
        b[offset + 1] = (byte) (value >>> 8);
    }

    static void put32(byte[] b, int offset, int value) {
        b[offset] = (byte) value;
        b[offset + 1] = (byte) (value >>> 8);
        b[offset + 2] = (byte) (value >>> 16);
        b[offset + 3] = (byte) (value >>> 24);
    }

    static byte[] le32(int value) {
        byte[] b = new byte[4];
        put32(b, 0, value);
        return b;
    }

    /** The two's complement checksum that makes the bytes sum to zero. */
    static byte checksum(byte[] b, int offset, int length) {
        int sum = 0;
        for (int i = offset; i < offset + length; i++) {
            sum += b[i];
        }
        return (byte) -sum;
    }

    /** Whether the bytes, checksum included, sum to zero. */
    static boolean checksumOk(byte[] b, int offset, int length) {
        int sum = 0;
        for (int i = offset; i < offset + length; i++) {
            sum += b[i];
        }
        return (sum & 0xff) == 0;
    }

    /** The parts one after the other. */
    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
