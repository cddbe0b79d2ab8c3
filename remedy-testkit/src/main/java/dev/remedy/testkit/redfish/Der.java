package dev.remedy.testkit.redfish;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** Just enough ASN.1 DER encoding (X.690) to write one self-signed X.509 certificate. */
final class Der {

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private Der() {
    }

    /** A tag, its definite length, then the parts concatenated. */
    static byte[] tlv(int tag, byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            content.writeBytes(part);
        }
        int length = content.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.write(tag);
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content.toByteArray());
        return out.toByteArray();
    }

    static byte[] sequence(byte[]... parts) {
        return tlv(0x30, parts);
    }

    static byte[] set(byte[]... parts) {
        return tlv(0x31, parts);
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] octetString(byte[] value) {
        return tlv(0x04, value);
    }

    /** A BIT STRING with no unused bits. */
    static byte[] bitString(byte[] value) {
        return tlv(0x03, new byte[] {0}, value);
    }

    static byte[] utf8(String value) {
        return tlv(0x0C, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A context-specific, constructed, explicit tag {@code [number]}. */
    static byte[] explicit(int number, byte[] content) {
        return tlv(0xA0 | number, content);
    }

    /** UTCTime before 2050, GeneralizedTime from then on (RFC 5280, 4.1.2.5). */
    static byte[] time(ZonedDateTime time) {
        ZonedDateTime utc = time.withZoneSameInstant(ZoneOffset.UTC);
        return utc.getYear() < 2050 ? tlv(0x17, UTC_TIME.format(utc).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(utc).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER from its dotted form, for example {@code "2.5.4.3"}. */
    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        base128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            base128(out, Long.parseLong(arcs[i]));
        }
        return tlv(0x06, out.toByteArray());
    }

    private static void base128(ByteArrayOutputStream out, long value) {
        int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
        for (int i = groups - 1; i >= 0; i--) {
            int group = (int) ((value >>> (7 * i)) & 0x7f);
            out.write(i == 0 ? group : group | 0x80);
        }
    }
}
