package dev.remedy.test.fake;

import dev.remedy.spi.TimeSource;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fake targets of this JVM, by name. The {@code fake} agent finds its target here (the agent is created by
 * {@link java.util.ServiceLoader}, so the lab is static); a target named by a {@code plug} that does not exist is
 * created powered on, and unreachable if its name starts with {@value #UNREACHABLE_PREFIX}. Tests should use
 * unique names. Thread-safe.
 */
public final class FakePowerLab {

    /** Targets whose names start with this never answer, for trying failure paths from the command line. */
    public static final String UNREACHABLE_PREFIX = "unreachable";

    private static final Map<String, FakePowerTarget> TARGETS = new ConcurrentHashMap<>();

    private FakePowerLab() {
    }

    /** The target named {@code name}, created on the given clock if it does not exist yet. */
    public static FakePowerTarget target(String name, TimeSource time) {
        return TARGETS.computeIfAbsent(name, n -> newTarget(n, time));
    }

    /** A new target named {@code name}, replacing any target of that name. */
    public static FakePowerTarget create(String name, TimeSource time) {
        FakePowerTarget target = newTarget(name, time);
        TARGETS.put(name, target);
        return target;
    }

    /** The target named {@code name}, if it exists. */
    public static Optional<FakePowerTarget> find(String name) {
        return Optional.ofNullable(TARGETS.get(name));
    }

    /** Every target, by name. */
    public static List<FakePowerTarget> targets() {
        return TARGETS.values().stream().sorted(Comparator.comparing(FakePowerTarget::name)).toList();
    }

    /** Removes the target named {@code name}. */
    public static void remove(String name) {
        TARGETS.remove(name);
    }

    private static FakePowerTarget newTarget(String name, TimeSource time) {
        return new FakePowerTarget(name, time).reachable(!name.startsWith(UNREACHABLE_PREFIX));
    }
}
