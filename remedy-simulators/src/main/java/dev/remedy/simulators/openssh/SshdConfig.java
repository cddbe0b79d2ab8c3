package dev.remedy.simulators.openssh;

import java.nio.file.Path;

/**
 * The {@code sshd_config} of one server: loopback only, its own host key, pid file and authorized keys, one
 * allowed user, the forced command, and nothing else a test does not need (no forwarding, no subsystem, no motd
 * or last-login lines that would come before the device's banner). Password checking without PAM: Debian's sshd
 * reads {@code /etc/shadow} itself when {@code UsePAM no} (so it needs root), and PAM's session modules
 * ({@code pam_loginuid}) fail in containers.
 *
 * @param workDir the work directory (absolute, no characters that need quoting)
 * @param port the TCP port
 * @param user the one user allowed to log in
 * @param hostKey the private host key file
 * @param forcedCommand the script run for every session
 */
record SshdConfig(Path workDir, int port, String user, Path hostKey, Path forcedCommand) {

    /** The address sshd listens on. */
    static final String HOST = "127.0.0.1";

    /** The configuration file's text. */
    String text() {
        return String.join("\n",
                "# Written by remedy's OpenSshServerProcess for one test server; do not edit.",
                "ListenAddress " + HOST,
                "Port " + port,
                "HostKey " + hostKey,
                "PidFile " + workDir.resolve("sshd.pid"),
                "AuthorizedKeysFile " + workDir.resolve("authorized_keys") + "/%u",
                "StrictModes no",
                "UsePAM no",
                "PubkeyAuthentication yes",
                "PasswordAuthentication yes",
                "PermitEmptyPasswords no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin no",
                "AllowUsers " + user,
                "MaxAuthTries 6",
                "LoginGraceTime 30",
                "ForceCommand " + forcedCommand,
                "PermitUserEnvironment no",
                "AllowTcpForwarding no",
                "AllowAgentForwarding no",
                "AllowStreamLocalForwarding no",
                "X11Forwarding no",
                "PermitTunnel no",
                "PrintMotd no",
                "PrintLastLog no",
                "Banner none",
                "UseDNS no",
                "LogLevel VERBOSE",
                "");
    }
}
