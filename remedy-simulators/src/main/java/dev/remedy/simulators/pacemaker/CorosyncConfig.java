package dev.remedy.simulators.pacemaker;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The {@code corosync.conf} of a one-node ring on 127.0.0.1: knet on the given UDP port, no crypto (loopback only),
 * state and log in the work directory, nothing to syslog or standard error.
 */
final class CorosyncConfig {

    /** Paths corosync's configuration parser takes unquoted. */
    static final Pattern SAFE_PATH = Pattern.compile("/[A-Za-z0-9._/+,:@=-]*");
    private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

    private CorosyncConfig() {
    }

    /**
     * The configuration's text.
     *
     * @param nodeName the one node's name (the fencer's own node): lower-case letters, digits and {@code -}
     * @param port the knet UDP port on 127.0.0.1
     * @param directory the state directory, which also holds {@code corosync.log}
     * @throws IllegalArgumentException if the name or directory breaks the rules above, or the port is not 1-65535
     */
    static String text(String nodeName, int port, Path directory) {
        if (!NODE_NAME.matcher(nodeName).matches()) {
            throw new IllegalArgumentException("corosync node name '" + nodeName + "' may only hold lower-case "
                    + "letters, digits and -");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("corosync port " + port + " is not between 1 and 65535");
        }
        String dir = directory.toString();
        if (!SAFE_PATH.matcher(dir).matches()) {
            throw new IllegalArgumentException("corosync's directory " + dir + " must be absolute and only hold "
                    + "letters, digits and ._/+,:@=- (corosync.conf takes it unquoted); use another directory");
        }
        return String.join("\n",
                "# Written by remedy's PacemakerFencer: a one-node ring on loopback for pacemaker-fenced.",
                "totem {",
                "  version: 2",
                "  cluster_name: remedy-fencer",
                "  transport: knet",
                "  crypto_cipher: none",
                "  crypto_hash: none",
                "  interface {",
                "    linknumber: 0",
                "    mcastport: " + port,
                "  }",
                "}",
                "nodelist {",
                "  node {",
                "    name: " + nodeName,
                "    nodeid: 1",
                "    ring0_addr: 127.0.0.1",
                "  }",
                "}",
                "quorum {",
                "  provider: corosync_votequorum",
                "}",
                "system {",
                "  state_dir: " + dir,
                "}",
                "logging {",
                "  to_stderr: no",
                "  to_syslog: no",
                "  to_logfile: yes",
                "  logfile: " + directory.resolve("corosync.log"),
                "  timestamp: on",
                "}",
                "");
    }
}
