package dev.remedy.simulators.ipmi;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * One RMCP+ session on a simulated BMC, from Open Session to Close Session: the handshake values, then the keys,
 * the privilege, the inbound replay window, the outbound sequence and the last answer (for retransmissions).
 * Confined to the simulator thread.
 */
final class BmcSession {

    /** Where the session is in its life. */
    enum State {
        /** Open Session answered; waiting for RAKP 1. */
        OPENED,
        /** RAKP 2 sent; waiting for RAKP 3. */
        RAKP2_SENT,
        /** RAKP 4 sent: IPMI messages flow. */
        ACTIVE,
        /** Close Session answered; kept briefly to answer a retransmitted Close Session. */
        CLOSED
    }

    static final int RMCP_PLUS_HEADER = 16;

    final int bmcId;
    final int consoleId;
    final CipherSuite suite;
    final long createdNanos;
    State state = State.OPENED;
    long lastActivityNanos;

    /** The last handshake payload received and the datagram answering it, to answer a retransmission alike. */
    byte[] handshakeRequest;
    byte[] handshakeResponse;

    BmcUser user;
    int role;
    byte[] rm;
    byte[] rc;

    Privilege maxPrivilege;
    Privilege privilege;
    /** Set by Close Session for this session: close once the answer is sent. */
    boolean closing;
    private Mac integrity;
    private SecretKeySpec aesKey;
    private final ReplayWindow window = new ReplayWindow();
    private int outboundSequence;

    /** The last in-session request and answer, for retransmissions. */
    int lastInboundSequence;
    IpmiRequest lastRequest;
    IpmiResponse lastResponse;
    final byte[] lastDatagram = new byte[Crypto.MAX_DATAGRAM];
    int lastDatagramLength;

    BmcSession(int bmcId, int consoleId, CipherSuite suite, long nowNanos) {
        this.bmcId = bmcId;
        this.consoleId = consoleId;
        this.suite = suite;
        this.createdNanos = nowNanos;
        this.lastActivityNanos = nowNanos;
    }

    /** Installs the session keys and opens the session at USER level (or its maximum, if lower). */
    void activate(byte[] k1, byte[] k2, Privilege max) {
        if (suite.integrity != CipherSuite.Hash.NONE) {
            integrity = Crypto.keyedMac(suite.integrity, k1);
        }
        if (suite.encrypted) {
            aesKey = new SecretKeySpec(Arrays.copyOf(k2, 16), "AES");
        }
        maxPrivilege = max;
        privilege = Privilege.min(Privilege.USER, max);
        state = State.ACTIVE;
    }

    /** Judges an inbound sequence number. */
    ReplayWindow.Verdict accept(int sequence) {
        return window.accept(sequence);
    }

    /**
     * Checks and decrypts an in-session IPMI payload of {@code in} (a whole datagram) into {@code crypto.plain}.
     *
     * @return the IPMI message length, or -1 if the packet must be dropped (wrong flags, AuthCode or padding)
     */
    int open(byte[] in, int length, Crypto crypto) {
        int flags = in[5];
        boolean encrypted = (flags & 0x80) != 0;
        boolean authenticated = (flags & 0x40) != 0;
        int payloadLength = Wire.u16(in, 14);
        int payloadEnd = RMCP_PLUS_HEADER + payloadLength;
        if (payloadEnd > length || authenticated != (integrity != null) || encrypted != (aesKey != null)) {
            return -1;
        }
        if (integrity != null && !authenticCode(in, length, payloadEnd, crypto)) {
            return -1;
        }
        if (aesKey == null) {
            System.arraycopy(in, RMCP_PLUS_HEADER, crypto.plain, 0, payloadLength);
            return payloadLength;
        }
        return decrypt(in, payloadLength, crypto);
    }

    private boolean authenticCode(byte[] in, int length, int payloadEnd, Crypto crypto) {
        int codeLength = suite.integrity.truncatedLength;
        int codeAt = length - codeLength;
        if (codeAt < payloadEnd + 2 || in[codeAt - 1] != 0x07) {
            return false;
        }
        int pad = in[codeAt - 2] & 0xff;
        if (payloadEnd + pad + 2 != codeAt) {
            return false;
        }
        integrity.update(in, 4, codeAt - 4);
        try {
            integrity.doFinal(crypto.mac, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("integrity MAC failed", e);
        }
        int difference = 0;
        for (int i = 0; i < codeLength; i++) {
            difference |= crypto.mac[i] ^ in[codeAt + i];
        }
        return difference == 0;
    }

    private int decrypt(byte[] in, int payloadLength, Crypto crypto) {
        int cipherLength = payloadLength - 16;
        if (cipherLength < 16 || cipherLength % 16 != 0) {
            return -1;
        }
        int plainLength;
        try {
            Cipher aes = crypto.aes();
            aes.init(Cipher.DECRYPT_MODE, aesKey, new IvParameterSpec(in, RMCP_PLUS_HEADER, 16));
            plainLength = aes.doFinal(in, RMCP_PLUS_HEADER + 16, cipherLength, crypto.plain, 0);
        } catch (GeneralSecurityException e) {
            return -1;
        }
        int pad = crypto.plain[plainLength - 1] & 0xff;
        if (pad + 1 > plainLength) {
            return -1;
        }
        int messageLength = plainLength - pad - 1;
        for (int i = 0; i < pad; i++) {
            if (crypto.plain[messageLength + i] != i + 1) {
                return -1;
            }
        }
        return messageLength;
    }

    /**
     * Writes a whole in-session datagram carrying {@code message} to the console: header with the console's
     * session id and the next outbound sequence number, encrypted payload, integrity trailer.
     *
     * @return the datagram length
     */
    int seal(byte[] message, int messageLength, byte[] out, Crypto crypto, Random random) {
        random.nextBytes(crypto.iv);
        return seal(message, messageLength, out, crypto, crypto.iv, nextOutboundSequence());
    }

    /** As {@link #seal(byte[], int, byte[], Crypto, Random)} with a given IV and sequence number. */
    int seal(byte[] message, int messageLength, byte[] out, Crypto crypto, byte[] iv, int sequence) {
        out[0] = 0x06;
        out[1] = 0x00;
        out[2] = (byte) 0xff;
        out[3] = 0x07;
        out[4] = 0x06;
        out[5] = (byte) ((aesKey != null ? 0x80 : 0) | (integrity != null ? 0x40 : 0));
        Wire.put32(out, 6, consoleId);
        Wire.put32(out, 10, sequence);
        int payloadLength = aesKey == null ? copy(message, messageLength, out) : encrypt(message, messageLength,
                out, crypto, iv);
        Wire.put16(out, 14, payloadLength);
        int at = RMCP_PLUS_HEADER + payloadLength;
        if (integrity == null) {
            return at;
        }
        int pad = (4 - (12 + payloadLength + 2) % 4) % 4;
        for (int i = 0; i < pad; i++) {
            out[at++] = (byte) 0xff;
        }
        out[at++] = (byte) pad;
        out[at++] = 0x07;
        integrity.update(out, 4, at - 4);
        try {
            integrity.doFinal(crypto.mac, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("integrity MAC failed", e);
        }
        System.arraycopy(crypto.mac, 0, out, at, suite.integrity.truncatedLength);
        return at + suite.integrity.truncatedLength;
    }

    private static int copy(byte[] message, int messageLength, byte[] out) {
        System.arraycopy(message, 0, out, RMCP_PLUS_HEADER, messageLength);
        return messageLength;
    }

    private int encrypt(byte[] message, int messageLength, byte[] out, Crypto crypto, byte[] iv) {
        int pad = (16 - (messageLength + 1) % 16) % 16;
        byte[] padded = crypto.padded;
        System.arraycopy(message, 0, padded, 0, messageLength);
        for (int i = 0; i < pad; i++) {
            padded[messageLength + i] = (byte) (i + 1);
        }
        padded[messageLength + pad] = (byte) pad;
        System.arraycopy(iv, 0, out, RMCP_PLUS_HEADER, 16);
        try {
            Cipher aes = crypto.aes();
            aes.init(Cipher.ENCRYPT_MODE, aesKey, new IvParameterSpec(iv, 0, 16));
            return 16 + aes.doFinal(padded, 0, messageLength + pad + 1, out, RMCP_PLUS_HEADER + 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CBC encryption failed", e);
        }
    }

    private int nextOutboundSequence() {
        outboundSequence++;
        if (outboundSequence == 0) {
            outboundSequence = 1;
        }
        return outboundSequence;
    }

    /** Remembers the datagram that answered the request with inbound sequence {@code sequence}. */
    void rememberAnswer(int sequence, IpmiRequest request, IpmiResponse response, byte[] datagram, int length) {
        lastInboundSequence = sequence;
        lastRequest = request;
        lastResponse = response;
        System.arraycopy(datagram, 0, lastDatagram, 0, length);
        lastDatagramLength = length;
    }

    @Override
    public String toString() {
        return String.format("BmcSession[bmc=0x%08x, console=0x%08x, suite=%d, %s, %s]", bmcId, consoleId, suite.id,
                state, privilege);
    }
}
