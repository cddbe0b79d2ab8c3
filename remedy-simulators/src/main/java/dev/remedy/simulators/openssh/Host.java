package dev.remedy.simulators.openssh;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about the machine and the process that the server depends on, and the skip-or-fail rule for them. */
final class Host {

    private Host() {
    }

    /** Whether this JVM runs as root (uid 0), read from the owner of {@code /proc/self}. */
    static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** The name of the account this JVM runs as. */
    static String currentUser() {
        return System.getProperty("user.name");
    }

    /** Whether this runs in CI (environment variable {@code CI=true}), where nothing may be skipped. */
    static boolean ci() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Skips the calling test unless {@code condition} holds, like {@link dev.remedy.simulators.PeerPrograms}: on a
     * developer's machine with an AssertJ assumption, in CI by failing, so CI can never pass by skipping.
     *
     * @param reason what is missing and what to do, the message of the skip or failure
     * @throws IllegalStateException in CI, when the condition does not hold
     */
    static void require(boolean condition, String reason) {
        if (condition) {
            return;
        }
        if (ci()) {
            throw new IllegalStateException(reason + " (CI=true: CI must run this test, not skip it)");
        }
        assumeThat(condition).as(reason).isTrue();
    }
}
