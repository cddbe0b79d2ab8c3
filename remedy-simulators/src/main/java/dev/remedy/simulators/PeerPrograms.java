package dev.remedy.simulators;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Guards integration tests that run real peers (ipmi_sim, ipmitool, fence_ipmilan, sshd…): on a developer's
 * machine without the program the test is skipped with the package to install; in CI (environment variable
 * {@code CI=true}) a missing program fails the test, so CI can never pass by skipping its peers.
 */
public final class PeerPrograms {

    private PeerPrograms() {
    }

    /** The program's path if it is an executable on {@code PATH} (or in {@code /usr/sbin}, {@code /sbin}). */
    public static Optional<Path> find(String program) {
        String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
        return Stream.of(path.split(":")).filter(dir -> !dir.isEmpty()).map(dir -> Path.of(dir, program))
                .filter(Files::isExecutable).findFirst();
    }

    /**
     * Skips the calling test (or fails it in CI) unless {@code program} is installed.
     *
     * @param debianPackage the package that provides it, named in the message
     * @throws IllegalStateException in CI, when the program is missing
     */
    public static void require(String program, String debianPackage) {
        if (find(program).isPresent()) {
            return;
        }
        String message = program + " is not installed: apt-get install -y " + debianPackage;
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException(message + " (CI must install every peer: see .ci/run)");
        }
        assumeThat(false).as(message + " to run this test").isTrue();
    }
}
