package dev.remedy.fence.ssh.internal.session;

import com.jcraft.jsch.HostKey;
import com.jcraft.jsch.HostKeyRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.UserInfo;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * jsch's view of a {@link HostKeyPolicy}: answers jsch's host key question and remembers the key the device offered
 * and the verdict, so a refusal can name the offered fingerprint and how to pin it. Never adds a key. One per
 * connection.
 */
final class HostKeyCheck implements HostKeyRepository {

    private final HostKeyPolicy policy;
    private final HostKeyRepository knownHosts;
    private volatile String offeredType = "";
    private volatile String offeredFingerprint = "";
    private volatile int verdict = NOT_INCLUDED;

    HostKeyCheck(HostKeyPolicy policy, JSch jsch) throws SshException {
        this.policy = policy;
        if (policy instanceof HostKeyPolicy.KnownHosts known) {
            try {
                jsch.setKnownHosts(known.file().toString());
            } catch (JSchException e) {
                throw new SshException(SshException.Kind.PROTOCOL, "cannot read known_hosts file " + known.file() + ": "
                        + e.getMessage() + "; give a readable OpenSSH known_hosts file", e);
            }
            this.knownHosts = jsch.getHostKeyRepository();
        } else {
            this.knownHosts = null;
        }
    }

    @Override
    public int check(String host, byte[] key) {
        offeredType = keyType(key);
        offeredFingerprint = fingerprint(key);
        if (policy instanceof HostKeyPolicy.Pinned pinned) {
            verdict = pinned.fingerprint().equals(offeredFingerprint) ? OK : CHANGED;
        } else if (policy instanceof HostKeyPolicy.Insecure) {
            verdict = OK;
        } else {
            verdict = knownHosts.check(host, key);
        }
        return verdict;
    }

    /** The last verdict: {@link #OK}, {@link #NOT_INCLUDED} or {@link #CHANGED}. */
    int verdict() {
        return verdict;
    }

    /** The key type the device offered, e.g. {@code ssh-ed25519}, or empty before the key exchange. */
    String offeredType() {
        return offeredType;
    }

    /** The SHA-256 fingerprint of the key the device offered, or empty before the key exchange. */
    String offeredFingerprint() {
        return offeredFingerprint;
    }

    @Override
    public void add(HostKey hostkey, UserInfo ui) {
        // keys are never trusted on first use
    }

    @Override
    public void remove(String host, String type) {
        // the files are the user's
    }

    @Override
    public void remove(String host, String type, byte[] key) {
        // the files are the user's
    }

    @Override
    public String getKnownHostsRepositoryID() {
        return "remedy host key check";
    }

    @Override
    public HostKey[] getHostKey() {
        return knownHosts == null ? new HostKey[0] : knownHosts.getHostKey();
    }

    @Override
    public HostKey[] getHostKey(String host, String type) {
        return knownHosts == null ? new HostKey[0] : knownHosts.getHostKey(host, type);
    }

    /** The OpenSSH SHA-256 fingerprint of a public key blob: {@code SHA256:} and unpadded base64. */
    static String fingerprint(byte[] blob) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(blob);
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    private static String keyType(byte[] blob) {
        if (blob.length < 4) {
            return "unknown";
        }
        int length = ByteBuffer.wrap(blob).getInt();
        return length > 0 && length <= blob.length - 4 ? new String(blob, 4, length, StandardCharsets.US_ASCII)
                : "unknown";
    }
}
