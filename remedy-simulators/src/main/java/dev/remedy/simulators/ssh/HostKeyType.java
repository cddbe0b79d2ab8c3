package dev.remedy.simulators.ssh;

/** The type of the host key an {@link SshDeviceSimulator} generates at start and on each rotation. */
public enum HostKeyType {

    /** {@code ssh-ed25519}, the default. */
    ED25519("ssh-ed25519", 256),
    /** {@code ssh-rsa} with a 3072-bit modulus (signed with rsa-sha2-256/512 as clients ask). */
    RSA("ssh-rsa", 3072);

    private final String sshName;
    private final int bits;

    HostKeyType(String sshName, int bits) {
        this.sshName = sshName;
        this.bits = bits;
    }

    /** The key type's SSH name, as in {@code known_hosts}. */
    public String sshName() {
        return sshName;
    }

    int bits() {
        return bits;
    }
}
